import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import { Empty, ErrorText, Loading } from '../../components/state-views';
import { useReleases } from '../../features/releases/api/get-releases';
import { ReleaseCard } from '../../features/releases/components/release-card';
import { isStaff, useSession } from '../../lib/session';

// Curators and administrators only: readers never download the publishing form (issue 44.6, decision 088).
const PublishPanel = lazy(async () => ({
  default: (await import('../../features/releases/components/publish-panel')).PublishPanel,
}));

/**
 * Releases (issue 30.2): frozen, numbered copies of the published data with their notes and
 * checksums. Server-rendered for everyone; curators and administrators also see "Publish".
 */
export function ReleasesPage() {
  const session = useSession();
  const { data, error, isPending } = useReleases();
  const releases = data?.data ?? [];
  return (
    <>
      <h1 className="h3">Releases</h1>
      <p>
        A release is a frozen copy of the published data: the whole database as JSON, CSV and Excel, a{' '}
        <code>datapackage.json</code> describing the CSV, a <code>CITATION.cff</code>, the data licence, notes
        of what changed since the previous release, and <code>SHA256SUMS</code> to check every file. Its files
        never change, so a study can cite the release it used. Every change as it happens is in the{' '}
        <a href="/changes.atom">change feed</a>; members of the mailing list (subscribe on the{' '}
        <Link to="/">home page</Link>) get the notes of each release.
      </p>
      {isStaff(session) ? (
        <Suspense fallback={null}>
          <PublishPanel />
        </Suspense>
      ) : null}
      {isPending ? (
        <Loading />
      ) : error ? (
        <ErrorText>An error occurred while fetching the releases: {error.message}</ErrorText>
      ) : releases.length === 0 ? (
        <Empty>No release has been published yet.</Empty>
      ) : (
        releases.map((r) => <ReleaseCard key={r.version} release={r} />)
      )}
    </>
  );
}
