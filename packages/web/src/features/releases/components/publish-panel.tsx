import type { ReleaseBuild } from '@bvdb/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import { ErrorText } from '../../../components/state-views';
import { useReleaseBuilds } from '../api/get-release-builds';
import { usePublishRelease } from '../api/publish-release';
import { queryKeys } from '../../../lib/query-keys';

const STATUS: Record<ReleaseBuild['status'], string> = {
  building: 'being built…',
  published: 'published',
  failed: 'failed',
};

const ASKED_BY: Record<ReleaseBuild['cause'], string> = {
  curator: 'a curator',
  admin: 'an administrator',
  schedule: 'the monthly schedule',
};

function Mailing({ build }: { build: ReleaseBuild }) {
  const m = build.mailing;
  if (!m) return null;
  const line =
    m.delivery === 'sent'
      ? `Notes mailed to ${m.sent} of ${m.recipients} mailing-list members${m.failed ? ` (${m.failed} failed)` : ''}.`
      : `Notes for ${m.recipients} mailing-list members stored, not sent: Mailgun is not configured.`;
  return (
    <details className="small">
      <summary>{line}</summary>
      <p className="mb-1 mt-1">
        <strong>Subject:</strong> {m.subject}
      </p>
      <pre className="small bg-light p-2" style={{ whiteSpace: 'pre-wrap' }}>
        {m.text}
      </pre>
    </details>
  );
}

/**
 * Curators' and administrators' part of /releases: "Publish a release", the builds in progress
 * and the mail each release sent (or, without Mailgun, stored). The server checks the role.
 */
export function PublishPanel() {
  const queryClient = useQueryClient();
  const builds = useReleaseBuilds();
  const publish = usePublishRelease();
  const list = builds.data?.data ?? [];
  const building = list.some((b) => b.status === 'building');
  // A build that finished meanwhile: the public list gets it.
  const wasBuilding = useRef(false);
  useEffect(() => {
    if (wasBuilding.current && !building)
      void queryClient.invalidateQueries({ queryKey: queryKeys.releases });
    wasBuilding.current = building;
  }, [building, queryClient]);

  return (
    <section className="card mb-4" aria-labelledby="publish-heading">
      <div className="card-body">
        <h2 id="publish-heading" className="h5">
          Publish
        </h2>
        <p className="small">
          A release freezes the published data as they are now, with notes of what changed since the previous
          release, and mails the notes to the mailing list. One is also made on the first day of each month
          when something changed.
        </p>
        <Button onClick={() => publish.mutate()} disabled={publish.isPending || building}>
          {building ? 'A release is being built…' : 'Publish a release'}
        </Button>
        {publish.error ? (
          <Alert variant="danger" className="mt-3 mb-0">
            {publish.error.message}
          </Alert>
        ) : null}
        {builds.error ? <ErrorText>The builds could not be loaded: {builds.error.message}</ErrorText> : null}
        {list.length > 0 ? (
          <ul className="list-unstyled mt-3 mb-0" aria-live="polite">
            {list.slice(0, 5).map((b) => (
              <li key={b.version} className="mb-2">
                Release {b.version}: {STATUS[b.status]}{' '}
                <span className="text-muted small">(asked by {ASKED_BY[b.cause]})</span>
                {b.error ? <div className="text-danger small">{b.error}</div> : null}
                <Mailing build={b} />
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    </section>
  );
}
