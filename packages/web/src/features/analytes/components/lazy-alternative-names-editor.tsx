import { lazy, Suspense, type ComponentProps } from 'react';
import type { AlternativeNamesEditor } from './alternative-names-editor';

// Only curators and administrators see the names field (decision 083): its code (a form, the
// mutation) is fetched when it is shown, not with every visitor's first load of a measurand page.
const EditorCode = lazy(() =>
  import('./alternative-names-editor').then((m) => ({ default: m.AlternativeNamesEditor })),
);

export function LazyAlternativeNamesEditor(props: ComponentProps<typeof AlternativeNamesEditor>) {
  return (
    <Suspense fallback={null}>
      <EditorCode {...props} />
    </Suspense>
  );
}
