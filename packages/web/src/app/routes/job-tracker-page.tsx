import type { Job } from '@bvdb/contract';
import Table from 'react-bootstrap/Table';
import { Link } from 'react-router';
import { Empty, ErrorText, Loading } from '../../components/state-views';
import { RequireSignIn } from '../../components/require-sign-in';
import { useQueueJobs } from '../../features/meta-tools/api/list-queue-jobs';
import { PercentBar } from '../../features/meta-tools/components/percent-bar';
import { jobPercent } from '../../features/meta-tools/use-job-progress';
import { HeaderRow } from '../../components/header-row';

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString('en-GB') : '');

/** "Job tracker" (spec section 2): every recent background job with its progress. */
export function JobTrackerPage() {
  return (
    <RequireSignIn>
      <h1 className="h3">Job Tracker</h1>
      <p>
        Background jobs, newest first, refreshed every two seconds. Start a recomputation of the meta-analyses
        on the <Link to="/meta_jobs">Meta job progress</Link> page.
      </p>
      <JobsTable />
    </RequireSignIn>
  );
}

function JobsTable() {
  const q = useQueueJobs();
  if (q.isPending) return <Loading />;
  if (q.error) {
    console.error(q.error);
    return <ErrorText>Error: {q.error.message}</ErrorText>;
  }
  if (q.data.data.length === 0) return <Empty />;
  return (
    // Focusable so keyboard users can scroll the wide table (WCAG 2.1.1).
    <div className="table-responsive" tabIndex={0} role="region" aria-label="Background jobs">
      <Table striped bordered size="sm" className="align-middle">
        <caption className="visually-hidden">Background jobs</caption>
        <thead>
          <HeaderRow
            names={[
              'Name',
              'Job id',
              'background-job id',
              'Queue',
              'Classname',
              'Started At',
              'Finished At',
              'Status',
              'Progress Stage',
              'Progress Current',
              'Progress Max',
              'Progress',
            ]}
          />
        </thead>
        <tbody>
          {q.data.data.map((j) => (
            <JobRow key={j.id} job={j} />
          ))}
        </tbody>
      </Table>
    </div>
  );
}

function JobRow({ job: j }: { job: Job }) {
  const percent = jobPercent(j);
  return (
    <tr>
      <td>{j.name}</td>
      <td>{j.id}</td>
      <td className="small text-break">{j.jid ?? ''}</td>
      <td>{j.queue}</td>
      <td>{j.class_name}</td>
      <td>{when(j.started_at)}</td>
      <td>{when(j.finished_at)}</td>
      <td>{j.status}</td>
      <td>{j.progress_stage ?? ''}</td>
      <td>{j.progress_current}</td>
      <td>{j.progress_max}</td>
      <td style={{ minWidth: 120 }}>
        <PercentBar
          percent={percent}
          label={`Job ${j.id}: ${percent}%`}
          variant={j.status === 'failed' ? 'danger' : percent === 100 ? 'success' : undefined}
        />
      </td>
    </tr>
  );
}
