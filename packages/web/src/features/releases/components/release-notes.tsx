import type { ReactNode } from 'react';

/**
 * The release notes' Markdown, as the server writes it (changes-notes.ts): a `#` title, a
 * paragraph, `##` headings and `- ` items. Rendered as elements, never as HTML; the title is left
 * out (the card has its own heading).
 */
export function ReleaseNotes({ markdown }: { markdown: string }) {
  const out: ReactNode[] = [];
  let items: string[] = [];
  const flush = () => {
    if (items.length === 0) return;
    out.push(
      <ul key={`ul-${out.length}`} className="mb-2">
        {items.map((item, i) => (
          <li key={i}>{item}</li>
        ))}
      </ul>,
    );
    items = [];
  };
  for (const line of markdown.split('\n')) {
    if (line.startsWith('- ')) {
      items.push(line.slice(2));
      continue;
    }
    flush();
    if (line.startsWith('# ') || line.trim() === '') continue;
    if (line.startsWith('## '))
      out.push(
        <h4 key={`h-${out.length}`} className="h6 mt-3 mb-1">
          {line.slice(3)}
        </h4>,
      );
    else
      out.push(
        <p key={`p-${out.length}`} className="mb-2">
          {line}
        </p>,
      );
  }
  flush();
  return <>{out}</>;
}
