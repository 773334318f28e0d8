import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import { Link, useSearchParams } from 'react-router';
import { ErrorText, Loading } from '../../components/state-views';
import { useSession } from '../../lib/session';
import { RequireSignIn } from '../../components/require-sign-in';
import { useLatestMetaJobs, startRecompute } from '../../features/meta-tools/api/list-queue-jobs';
import { JobProgressDisplay } from '../../features/meta-tools/components/job-progress';
import { queryKeys } from '../../lib/query-keys';

/**
 * "Meta job progress" (spec section 2): the two recomputation jobs, each polled until done.
 * `?consolidated={id}&meta={id}` follows given jobs; otherwise the latest of each.
 */
export function MetaJobsPage() {
  return (
    <RequireSignIn>
      <h1 className="h3">Meta job progress</h1>
      <MetaJobs />
    </RequireSignIn>
  );
}

const idParam = (v: string | null) => (v && /^\d+$/.test(v) ? Number(v) : null);

function MetaJobs() {
  const session = useSession();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const latest = useLatestMetaJobs();
  const [starting, setStarting] = useState(false);
  const [startError, setStartError] = useState<string | null>(null);
  const given = { meta: idParam(params.get('meta')), consolidated: idParam(params.get('consolidated')) };

  const start = async () => {
    setStarting(true);
    setStartError(null);
    try {
      const jobs = await startRecompute(session.csrf_token);
      setParams({ consolidated: String(jobs.consolidated.id), meta: String(jobs.meta.id) });
      await queryClient.invalidateQueries({ queryKey: queryKeys.queueJobs });
    } catch (err) {
      setStartError(err instanceof Error ? err.message : 'An unknown error occurred.');
    } finally {
      setStarting(false);
    }
  };

  if (latest.isPending && given.meta === null && given.consolidated === null) return <Loading />;
  if (latest.error) return <ErrorText>Error: {latest.error.message}</ErrorText>;
  const ids = {
    consolidated: given.consolidated ?? (params.has('meta') ? null : (latest.data?.consolidated?.id ?? null)),
    meta: given.meta ?? (params.has('consolidated') ? null : (latest.data?.meta?.id ?? null)),
  };
  return (
    <>
      <p>
        Recomputing replaces every stored meta-analysis from the current datasets, one measurand at a time
        (readers see the old or the new results, never a mix). The <Link to="/jobs">Job Tracker</Link> lists
        every job.
      </p>
      <Button onClick={() => void start()} disabled={starting} className="mb-3">
        {starting ? 'Starting…' : 'Recompute all meta-analyses'}
      </Button>
      {startError ? <Alert variant="danger">{startError}</Alert> : null}
      <Card className="mb-3">
        <Card.Body>
          <h2 className="h5">Calculating Consolidated Metas</h2>
          <JobProgressDisplay
            key={`c-${ids.consolidated}`}
            jobId={ids.consolidated}
            label="Calculating Consolidated Metas"
          />
        </Card.Body>
      </Card>
      <Card className="mb-3">
        <Card.Body>
          <h2 className="h5">Calculating Meta-Analysis</h2>
          <JobProgressDisplay key={`m-${ids.meta}`} jobId={ids.meta} label="Calculating Meta-Analysis" />
        </Card.Body>
      </Card>
    </>
  );
}
