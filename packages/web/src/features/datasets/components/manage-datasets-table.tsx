import type { Dataset } from '@bvdb/contract';
import { formatCitation } from '@bvdb/domain';
import Table from 'react-bootstrap/Table';
import { Link } from 'react-router';
import { GradeBadge, IncludedBadge, PublishedBadge, ReviewedBadge } from '../../../components/dataset-badges';
import { HeaderRow } from '../../../components/header-row';
import { paths } from '../../../lib/paths';

/** Every dataset of the chosen measurand or reference, published or not, with its tools. */
export function ManageDatasetsTable({
  datasets,
  exportUrl,
  caption,
}: {
  datasets: Dataset[];
  exportUrl: string;
  caption: string;
}) {
  return (
    <>
      <a href={exportUrl} className="btn btn-success btn-sm mb-2">
        Export
      </a>
      {datasets.length === 0 ? (
        <p className="my-3">No Data found in database</p>
      ) : (
        <Table striped bordered responsive size="sm">
          <caption className="caption-top">{caption}</caption>
          <thead>
            <HeaderRow names={['ID', 'Reference', 'Measurand', 'Matrix', 'Status', 'Score', 'Tools']} />
          </thead>
          <tbody>
            {datasets.map((d) => (
              <tr key={d.id}>
                <td>{d.id}</td>
                <td>
                  <Link to={paths.reference(d.reference_id)}>{d.reference_title}</Link>
                  <div className="small text-muted">
                    {formatCitation({
                      author: d.reference_author,
                      journal: d.reference_journal,
                      year: d.reference_year_of_publication,
                      volume: d.reference_volume,
                      pages: d.reference_pages,
                    })}
                  </div>
                </td>
                <td>
                  <Link to={paths.analyte(d.analyte_id)}>{d.analyte_display_name}</Link>
                  <div className="small text-muted">{d.unique_identifier}</div>
                </td>
                <td>{d.matrix?.matrix_expansion ?? 'No Matrix'}</td>
                <td>
                  <div className="d-flex flex-column align-items-start gap-1">
                    <IncludedBadge value={d.include_in_meta_analysis} />
                    <ReviewedBadge value={d.review} />
                    <PublishedBadge value={d.published} />
                  </div>
                </td>
                <td>
                  <GradeBadge grade={d.total_score} />
                </td>
                <td className="text-nowrap">
                  <Link
                    to={paths.dataset(d.id)}
                    className="btn btn-outline-primary btn-sm me-1"
                    aria-label={`View dataset ${d.id}`}
                  >
                    View
                  </Link>
                  <Link
                    to={paths.editDataset(d.id)}
                    className="btn btn-outline-secondary btn-sm"
                    aria-label={`Edit dataset ${d.id}`}
                  >
                    Edit
                  </Link>
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </>
  );
}
