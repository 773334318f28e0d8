import type { Release } from '@bvdb/contract';
import { ReleaseNotes } from './release-notes';

const size = (bytes: number) =>
  bytes < 1024
    ? `${bytes} B`
    : bytes < 1024 * 1024
      ? `${(bytes / 1024).toFixed(1)} KB`
      : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** Dates in UTC: the server renders the page too (decision 004). */
const when = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

/** One release: its notes and its files, each with its size and SHA-256. */
export function ReleaseCard({ release }: { release: Release }) {
  const headingId = `release-${release.version.replace('.', '-')}`;
  const summary = release.notes.split('\n').find((l) => l.trim() !== '' && !l.startsWith('#')) ?? '';
  return (
    <section className="card mb-3" aria-labelledby={headingId}>
      <div className="card-body">
        <h2 id={headingId} className="h5 card-title">
          Release {release.version}
        </h2>
        <p className="text-muted small mb-2">Published {when(release.published_at)}</p>
        <p className="mb-2">{summary}</p>
        {/* Notes with changes to list; the summary line alone says "no changes". */}
        {release.notes.includes('\n## ') ? (
          <details className="mb-3">
            <summary>Release notes</summary>
            <div className="mt-2">
              <ReleaseNotes markdown={release.notes} />
            </div>
          </details>
        ) : null}
        <h3 className="h6">Files</h3>
        <ul className="list-unstyled mb-0">
          {release.files.map((f) => (
            <li key={f.name} className="mb-2">
              <a href={f.url} download>
                {f.name}
              </a>{' '}
              <span className="text-muted small">({size(f.bytes)})</span>
              <div className="small text-break">
                SHA-256 <code>{f.sha256}</code>
              </div>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
