import type { ReactNode } from 'react';

export function Loading({ text = 'Loading...' }: { text?: string }) {
  return (
    <p className="text-muted my-3" role="status" aria-live="polite">
      {text}
    </p>
  );
}

/** The generic error: red, with an icon (spec section 4). */
export function ErrorText({ children }: { children: ReactNode }) {
  return (
    <p className="text-danger my-3" role="alert">
      <span aria-hidden="true">⚠ </span>
      {children}
    </p>
  );
}

export function Empty({ children = 'No results available' }: { children?: ReactNode }) {
  return <p className="text-muted my-3">{children}</p>;
}
