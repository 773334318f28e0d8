import Badge from 'react-bootstrap/Badge';
import { ErrorText } from '../../../components/state-views';
import { PercentBar } from './percent-bar';
import { useJobProgress } from '../use-job-progress';

const VARIANT = { queued: 'secondary', working: 'info', complete: 'success', failed: 'danger' } as const;

/** One job's progress, polled until it ends (spec section 4, "Job progress"). */
export function JobProgressDisplay({
  jobId,
  label,
  intervalMs,
}: {
  jobId: number | null;
  label: string;
  intervalMs?: number;
}) {
  const p = useJobProgress(jobId, intervalMs !== undefined ? { intervalMs } : {});
  if (jobId === null) return <p className="text-muted">No job has run yet.</p>;
  return (
    <div data-testid={`job-progress-${jobId}`}>
      <div className="mb-2">
        <PercentBar
          percent={p.percent}
          label={`${label}: ${p.percent}%`}
          variant={
            p.job?.status === 'failed' || p.error ? 'danger' : p.percent === 100 ? 'success' : undefined
          }
          animated={p.polling && p.percent < 100}
          height="1.5rem"
        />
      </div>
      <p className="small mb-1">
        Job {jobId}
        {p.job ? (
          <>
            {' · '}
            <Badge bg={VARIANT[p.job.status]}>{p.job.status}</Badge>
            {p.job.progress_stage ? ` · ${p.job.progress_stage}` : ''}
            {` · ${p.job.progress_current} of ${p.job.progress_max}`}
          </>
        ) : null}
        {p.polling ? <span className="text-muted"> · checking every second…</span> : null}
      </p>
      {p.error ? <ErrorText>{p.error}</ErrorText> : null}
    </div>
  );
}
