import { formatCitation } from '@bvdb/domain';
import { lazy, Suspense } from 'react';
import { Link, useParams } from 'react-router';
import { ErrorText, Loading } from '../../components/state-views';
import { isStaff, useSession } from '../../lib/session';
import { useDataset } from '../../features/datasets/api/get-datasets';
import { DatasetSummary } from '../../features/datasets/components/dataset-summary';
import { DatasetDetails } from '../../features/datasets/components/dataset-details';
import { useSiteInfo } from '../../features/content/api/get-site-info';
import { CiteButton } from '../../components/cite/cite-button';
import { doiUrl, pubmedUrl } from '../../lib/reference-links';
import { isNotFound } from '../../lib/api-client';
import { NotFoundPage } from './not-found-page';
import { paths } from '../../lib/paths';

// The staff's tools (decision 075): the page is rendered for nobody and hydrates so, so no visitor
// gets them in the first load; their code (the delete dialog with react-bootstrap's Modal, the raw
// data upload, the appraisal sender, the audit trail) is fetched once a curator's session shows.
const SendToAppraisal = lazy(() =>
  import('../../features/appraisals/components/send-to-appraisal').then((m) => ({
    default: m.SendToAppraisal,
  })),
);
const DeleteDatasetButton = lazy(() =>
  import('../../features/datasets/components/delete-dataset-button').then((m) => ({
    default: m.DeleteDatasetButton,
  })),
);
const RawDataCard = lazy(() =>
  import('../../features/datasets/components/raw-data-card').then((m) => ({ default: m.RawDataCard })),
);
const HistoryCard = lazy(() =>
  import('../../features/audit/components/history-card').then((m) => ({ default: m.HistoryCard })),
);

export function DatasetPage() {
  const id = Number(useParams().id);
  const session = useSession();
  const { data, error, isPending } = useDataset(id);
  const site = useSiteInfo();
  if (isPending) return <Loading />;
  if (isNotFound(error)) return <NotFoundPage />;
  if (error) return <ErrorText>Error: {error.message}</ErrorText>;
  const d = data.dataset;
  const study = {
    author: d.reference_author,
    title: d.reference_title,
    journal: d.reference_journal,
    year: d.reference_year_of_publication,
    volume: d.reference_volume,
    pages: d.reference_pages,
  };
  const doi = doiUrl(d.reference_doi);
  const pubmed = pubmedUrl(d.reference_pubmed_link);
  const matrix = d.matrix?.matrix_expansion ?? 'No Matrix';
  return (
    <>
      <div className="d-flex flex-wrap justify-content-between align-items-center gap-2 mb-2">
        <h1 className="h3 mb-0">
          {d.analyte_display_name} · {d.unique_identifier}
        </h1>
        <div className="d-flex flex-wrap gap-2">
          <CiteButton
            label={`dataset ${d.unique_identifier}`}
            input={() => ({
              databaseCitation: site.data?.citation ?? '',
              measurand: d.analyte_display_name,
              matrix,
              kind: 'dataset',
              datasetLabel: d.unique_identifier,
              values: [
                {
                  type: 'CVI',
                  value: d.estimates_of_cvi,
                  lower: d.reported_cvi_lower_confidence_interval ?? d.calculated_within_bv_lower_ci,
                  upper: d.reported_cvi_upper_confidence_interval ?? d.calculated_within_bv_upper_ci,
                },
                {
                  type: 'CVG',
                  value: d.estimates_of_cvg,
                  lower: d.reported_cvg_lower_confidence_interval ?? d.calculated_between_bv_lower_ci,
                  upper: d.reported_cvg_upper_confidence_interval ?? d.calculated_between_bv_upper_ci,
                },
              ],
              n: d.number_of_subjects_included_in_bv_estimation ?? d.number_of_subjects,
              updated: d.updated_at,
              path: paths.dataset(d.id),
              source: study,
            })}
          />
          {isStaff(session) ? (
            <>
              <Link to={paths.editDataset(d.id)} className="btn btn-outline-secondary btn-sm">
                Edit Dataset
              </Link>
              <a href={paths.copyDataset(d.id)} className="btn btn-outline-secondary btn-sm">
                Copy
              </a>
              <Suspense
                fallback={
                  <span className="text-muted small" role="status">
                    Loading…
                  </span>
                }
              >
                <SendToAppraisal datasetId={d.id} />
                <DeleteDatasetButton
                  id={d.id}
                  version={d.version}
                  analyteId={d.analyte_id}
                  label={d.unique_identifier}
                />
              </Suspense>
            </>
          ) : null}
        </div>
      </div>
      <p className="mb-3" data-testid="dataset-reference">
        Dataset of <Link to={paths.analyte(d.analyte_id)}>{d.analyte_display_name}</Link> ({matrix}) from{' '}
        <Link to={paths.reference(d.reference_id)}>
          {formatCitation(study) || `reference ${d.reference_id}`}
        </Link>
        {doi ? (
          <>
            {' · '}
            <a href={doi} target="_blank" rel="noopener noreferrer">
              DOI<span className="visually-hidden"> of the study</span>
            </a>
          </>
        ) : null}
        {pubmed ? (
          <>
            {' · '}
            <a href={pubmed} target="_blank" rel="noopener noreferrer">
              PubMed<span className="visually-hidden"> record of the study</span>
            </a>
          </>
        ) : null}
      </p>
      <DatasetSummary dataset={d} />
      <DatasetDetails dataset={d} />
      {isStaff(session) ? (
        <Suspense fallback={<Loading text="Loading the raw data and the history..." />}>
          <RawDataCard datasetId={d.id} />
          <HistoryCard entity="bv_specification" noun="dataset" id={d.id} />
        </Suspense>
      ) : null}
    </>
  );
}
