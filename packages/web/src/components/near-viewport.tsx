import { useEffect, useRef, useState, type ReactNode } from 'react';

/**
 * True once the element is within `margin` of the viewport (and from then on), or at once where
 * IntersectionObserver is missing. False on the server and in the first client render, so the
 * markup hydrates unchanged. For code that is only worth fetching when the reader gets near it.
 */
export function useNearViewport<T extends Element>(margin = '300px') {
  const ref = useRef<T>(null);
  const [near, setNear] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el || near) return undefined;
    if (typeof IntersectionObserver === 'undefined') {
      setNear(true);
      return undefined;
    }
    const io = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) setNear(true);
      },
      { rootMargin: `${margin} 0px` },
    );
    io.observe(el);
    return () => io.disconnect();
  }, [near, margin]);
  return [ref, near] as const;
}

/** Its children once it nears the viewport; until then `placeholder` (which should keep their height). */
export function WhenNearViewport({ placeholder, children }: { placeholder: ReactNode; children: ReactNode }) {
  const [ref, near] = useNearViewport<HTMLDivElement>();
  return <div ref={ref}>{near ? children : placeholder}</div>;
}
