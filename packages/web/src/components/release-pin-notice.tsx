import { formatDateDmy, formatMetaValue } from '@bvdb/domain';
import { Link } from 'react-router';
import type { PinnableMeta, PinnedDifference } from '../lib/release-pin';

const valueOf = (m: PinnableMeta) =>
  `${formatMetaValue(m.median)} %${
    m.lower !== null && m.upper !== null && m.lower < m.upper
      ? ` (${formatMetaValue(m.lower)}–${formatMetaValue(m.upper)})`
      : ''
  }, N = ${m.number_used}`;

/**
 * A measurand page pinned to a dated release (issue 30.3): says so, and names every estimate whose
 * value now differs from the release's, with both values, so a reader following a citation sees
 * what was cited and what holds today.
 */
export function ReleasePinNotice({
  version,
  publishedAt,
  differences,
  currentPath,
}: {
  /** The release pinned, or null for a page read `?as_of=` a moment (issue 42.9). */
  version: string | null;
  publishedAt: string;
  differences: PinnedDifference[];
  currentPath: string;
}) {
  return (
    // Bootstrap's alert classes without react-bootstrap's Alert: its transition code was ~5 KB of the
    // measurand page's first load (decision 028's budget), for a notice that never closes.
    <div
      role="status"
      className={`alert ${differences.length ? 'alert-warning' : 'alert-info'}`}
      data-testid="release-pin"
    >
      <p className="mb-1">
        {version !== null ? (
          <>
            <strong>Values of release {version}</strong> (published {formatDateDmy(publishedAt)}): the
            meta-analysis results and calculators below show this release&apos;s values.{' '}
          </>
        ) : (
          <>
            <strong>Values as of {publishedAt}</strong>: the meta-analysis results and calculators below show
            the values as they were then.{' '}
          </>
        )}
        <Link to={currentPath}>Show the current values</Link>.
      </p>
      {differences.length === 0 ? (
        <p className="mb-0">The current values are the same.</p>
      ) : (
        <>
          <p className="mb-1">The current value differs:</p>
          <ul className="mb-0">
            {differences.map((d) => (
              <li key={d.label}>
                {d.label}:{' '}
                {d.pinned
                  ? `${version !== null ? 'in this release' : 'then'} ${valueOf(d.pinned)}`
                  : version !== null
                    ? 'not in this release'
                    : 'none then'}
                ; {d.current ? `now ${valueOf(d.current)}` : 'withdrawn since'}
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
