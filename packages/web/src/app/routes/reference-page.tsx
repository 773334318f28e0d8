import { exportReferenceUrl } from '@bvdb/contract';
import { formatFixed } from '@bvdb/domain';
import Table from 'react-bootstrap/Table';
import { Link, useParams } from 'react-router';
import { ErrorText, Loading } from '../../components/state-views';
import { useReferenceDatasets } from '../../features/datasets/api/get-datasets';
import { GradeBadge, yesNo } from '../../components/dataset-badges';
import { isStaff, useSession } from '../../lib/session';
import { HistoryCard } from '../../features/audit/components/history-card';
import { useReference } from '../../features/references/api/get-references';
import { ReferenceCard } from '../../features/references/components/reference-card';
import { HeaderRow } from '../../components/header-row';
import { isNotFound } from '../../lib/api-client';
import { NotFoundPage } from './not-found-page';
import { paths } from '../../lib/paths';

const cv = (v: number | null) => (v === null ? 'N/A' : formatFixed(v, 1));

export function ReferencePage() {
  const id = Number(useParams().id);
  const ref = useReference(id);
  const datasets = useReferenceDatasets(id);
  const session = useSession();
  if (ref.isPending) return <Loading />;
  if (isNotFound(ref.error)) return <NotFoundPage />;
  if (ref.error) {
    console.error(ref.error);
    return <ErrorText>Error loading reference</ErrorText>;
  }
  const r = ref.data.reference;
  return (
    <>
      <h1 className="h3">Reference</h1>
      <div className="card card-body mb-3">
        <ReferenceCard reference={r} />
      </div>
      <h2 className="h5">Datasets from this reference</h2>
      {datasets.isPending ? (
        <Loading />
      ) : datasets.error ? (
        <ErrorText>Error: {datasets.error.message}</ErrorText>
      ) : (
        <>
          {/* Nothing to export under an empty table (issue 27.10): the spec's "No References" alone. */}
          {datasets.data.datasets.length === 0 ? null : (
            <a
              href={datasets.data.export_url ?? exportReferenceUrl(id)}
              className="btn btn-success btn-sm mb-2"
            >
              Export
            </a>
          )}
          {datasets.data.datasets.length === 0 ? (
            <p>No References</p>
          ) : (
            <Table striped bordered responsive className="table-stack">
              <caption className="caption-top">Specifications of this reference</caption>
              <thead>
                <HeaderRow
                  names={[
                    'ID',
                    'Analyte',
                    'Matrix',
                    'CVI (%)',
                    'CVG (%)',
                    'Included in Meta',
                    'Reviewed',
                    'Published',
                    'Score',
                    'Tools',
                  ]}
                />
              </thead>
              <tbody>
                {datasets.data.datasets.map((d) => (
                  <tr key={d.id}>
                    <td data-label="ID">{d.id}</td>
                    <td data-label="Analyte">
                      <Link to={paths.analyte(d.analyte_id)}>{d.analyte_display_name}</Link>
                    </td>
                    <td data-label="Matrix">{d.matrix?.matrix_expansion ?? 'No Matrix'}</td>
                    <td data-label="CVI (%)">{cv(d.estimates_of_cvi)}</td>
                    <td data-label="CVG (%)">{cv(d.estimates_of_cvg)}</td>
                    <td data-label="Included in Meta">{yesNo(d.include_in_meta_analysis)}</td>
                    <td data-label="Reviewed">{yesNo(d.review)}</td>
                    <td data-label="Published">{yesNo(d.published)}</td>
                    <td data-label="Score">
                      <GradeBadge grade={d.total_score} />
                    </td>
                    <td data-label="Tools" className="text-nowrap">
                      <Link to={paths.dataset(d.id)} className="btn btn-outline-primary btn-sm me-1">
                        Details
                      </Link>
                      <Link to={paths.analyte(d.analyte_id)} className="btn btn-outline-primary btn-sm">
                        Measurand
                      </Link>
                    </td>
                  </tr>
                ))}
              </tbody>
            </Table>
          )}
        </>
      )}
      {isStaff(session) ? <HistoryCard entity="reference" noun="reference" id={id} /> : null}
    </>
  );
}
