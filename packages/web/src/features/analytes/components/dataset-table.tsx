import type { Dataset } from '@bvdb/contract';
import { formatFixed } from '@bvdb/domain';
import Table from 'react-bootstrap/Table';
import { Link } from 'react-router';
import { HeaderRow } from '../../../components/header-row';

const cv = (v: number | null) => (v === null ? 'N/A' : formatFixed(v, 2));
const age = (d: Dataset) =>
  d.age_mean !== null
    ? `mean ${d.age_mean}`
    : d.age_min !== null && d.age_max !== null
      ? `${d.age_min}–${d.age_max}`
      : 'N/A';

/** The analyte page's datasets: green when included in the meta-analysis, yellow when not. */
export function DatasetTable({ datasets }: { datasets: Dataset[] }) {
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
      </div>
      <Table bordered responsive className="align-middle">
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
            ]}
          />
        </thead>
        <tbody>
          {datasets.map((d) => (
            <tr
              key={d.id}
              className={d.include_in_meta_analysis ? 'table-success' : 'table-warning'}
              data-included={d.include_in_meta_analysis}
            >
              <td>
                <Link to={`/references/${d.reference_id}`}>
                  {d.reference_author.split(',')[0]} ({d.reference_year_of_publication ?? 'n.d.'})
                </Link>
              </td>
              <td>
                <Link to={`/bv_specifications/${d.id}`}>{d.unique_identifier}</Link>
              </td>
              <td>{cv(d.estimates_of_cvi)}</td>
              <td>{cv(d.estimates_of_cvg)}</td>
              <td>{d.sex_for_meta_analysis ?? 'N/A'}</td>
              <td>{age(d)}</td>
              <td>{d.state_of_well_being ?? 'No State of Wellbeing Defined'}</td>
              <td>{d.matrix?.matrix_expansion ?? 'No Matrix'}</td>
              <td>{d.sampling_interval}</td>
            </tr>
          ))}
        </tbody>
      </Table>
    </>
  );
}
