import type { Dataset, MetaRecord } from '@bvdb/contract';
import { formatFixed, formatShortCitation } from '@bvdb/domain';
import Table from 'react-bootstrap/Table';
import { Link } from 'react-router';
import { HeaderRow } from '../../../components/header-row';
import { describeMetaUse, metaUseOf } from '../meta-use';
import { paths } from '../../../lib/paths';

const cv = (v: number | null) => (v === null ? 'N/A' : formatFixed(v, 2));
const age = (d: Dataset) =>
  d.age_mean !== null
    ? `mean ${d.age_mean}`
    : d.age_min !== null && d.age_max !== null
      ? `${d.age_min}–${d.age_max}`
      : 'N/A';

/**
 * "Ricós C et al. (2009)"; without a known author the spec's default, "Unknown Author (2021)", never a
 * bare "(2021)" link (issue 27.10). The running-text citations leave the placeholder out (decision 023).
 */
const referenceLabel = (d: Dataset) => {
  const short = formatShortCitation({ author: d.reference_author, year: d.reference_year_of_publication });
  return short === '' || short.startsWith('(') ? `Unknown Author${short ? ` ${short}` : ''}` : short;
};

/**
 * The analyte page's datasets: green when a meta-analysis result of the measurand actually uses the
 * dataset, yellow when none does; the last column says for which estimate, or why it was left out.
 */
export function DatasetTable({ datasets, metas }: { datasets: Dataset[]; metas: readonly MetaRecord[] }) {
  if (datasets.length === 0) return <p>No datasets in database</p>;
  return (
    <>
      <div
        className="d-flex flex-wrap gap-3 align-items-center mb-2 small"
        aria-label="Colour Key for References"
      >
        <strong>Colour Key for References</strong>
        <span className="px-2 py-1 bg-success-subtle border">Included In Meta Analysis</span>
        <span className="px-2 py-1 bg-warning-subtle border">Not Included In Meta Analysis</span>
        <span className="text-muted">
          Green: used in a meta-analysis estimate shown above. The last column says why a dataset is left out.
        </span>
      </div>
      <Table bordered responsive className="align-middle table-stack">
        <caption className="caption-top">Datasets</caption>
        <thead>
          <HeaderRow
            names={[
              'Reference',
              'Dataset',
              'Estimate of CVI',
              'Estimate of CVG',
              'Gender',
              'Age',
              'State of Well Being',
              'Matrix',
              'Sampling Interval',
              'Meta-analysis',
            ]}
          />
        </thead>
        <tbody>
          {datasets.map((d) => {
            const use = metaUseOf(d, metas);
            return (
              <tr key={d.id} className={use.used ? 'table-success' : 'table-warning'} data-used={use.used}>
                <td data-label="Reference">
                  <Link to={paths.reference(d.reference_id)} title={d.reference_title}>
                    {referenceLabel(d)}
                  </Link>
                </td>
                <td data-label="Dataset">
                  <Link to={paths.dataset(d.id)}>{d.unique_identifier}</Link>
                </td>
                <td data-label="Estimate of CVI">{cv(d.estimates_of_cvi)}</td>
                <td data-label="Estimate of CVG">{cv(d.estimates_of_cvg)}</td>
                <td data-label="Gender">{d.sex_for_meta_analysis ?? 'N/A'}</td>
                <td data-label="Age">{age(d)}</td>
                <td data-label="State of Well Being">
                  {d.state_of_well_being ?? 'No State of Wellbeing Defined'}
                </td>
                <td data-label="Matrix">{d.matrix?.matrix_expansion ?? 'No Matrix'}</td>
                <td data-label="Sampling Interval">{d.sampling_interval}</td>
                <td data-label="Meta-analysis" className="small" data-testid={`meta-use-${d.id}`}>
                  {describeMetaUse(use)}
                </td>
              </tr>
            );
          })}
        </tbody>
      </Table>
    </>
  );
}
