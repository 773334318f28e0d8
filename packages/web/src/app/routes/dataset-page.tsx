import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { ErrorText, Loading } from '../../components/state-views';
import { isStaff, useSession } from '../../lib/session';
import { DeleteDatasetButton } from '../../features/dataset-admin/components/delete-dataset-button';
import { HistoryCard } from '../../features/audit/components/history-card';
import { SendToAppraisal } from '../../features/appraisals/components/send-to-appraisal';
import { datasetQuery } from '../../features/specifications/api/get-datasets';
import { DatasetSummary } from '../../features/specifications/components/dataset-summary';
import { DatasetDetails } from '../../features/specifications/components/dataset-details';

export function DatasetPage() {
  const id = Number(useParams().id);
  const session = useSession();
  const { data, error, isPending } = useQuery(datasetQuery(id));
  if (isPending) return <Loading />;
  if (error) return <ErrorText>Error: {error.message}</ErrorText>;
  const d = data.dataset;
  return (
    <>
      <div className="d-flex flex-wrap justify-content-between align-items-center gap-2 mb-2">
        <h1 className="h3 mb-0">
          {d.analyte_display_name} · {d.unique_identifier}
        </h1>
        {isStaff(session) ? (
          <div className="d-flex gap-2">
            <Link to={`/bv_specifications/${d.id}/edit`} className="btn btn-outline-secondary btn-sm">
              Edit Dataset
            </Link>
            <a href={`/bv_specifications/${d.id}/copy`} className="btn btn-outline-secondary btn-sm">
              Copy
            </a>
            <SendToAppraisal datasetId={d.id} />
            <DeleteDatasetButton
              id={d.id}
              version={d.version}
              analyteId={d.analyte_id}
              label={d.unique_identifier}
            />
          </div>
        ) : null}
      </div>
      <DatasetSummary dataset={d} />
      <DatasetDetails dataset={d} />
      {isStaff(session) ? <HistoryCard entity="bv_specification" noun="dataset" id={d.id} /> : null}
    </>
  );
}
