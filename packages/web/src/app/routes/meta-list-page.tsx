import { formatDateDmy, formatMetaValue } from '@bvdb/domain';
import { useQuery } from '@tanstack/react-query';
import Table from 'react-bootstrap/Table';
import { Link } from 'react-router';
import { ErrorText, Loading } from '../../components/state-views';
import { metaListQuery } from '../../features/metas/api/get-counters';
import { HeaderRow } from '../../components/header-row';
import { DatabaseDownloads } from '../../components/database-downloads';
import { estimatePermalinkPath } from '../../lib/estimate-permalink';

export function MetaListPage() {
  const { data, error, isPending } = useQuery(metaListQuery);
  return (
    <>
      <h1 className="h3">List of BV estimates</h1>
      <DatabaseDownloads className="mb-3" />
      {isPending ? (
        <Loading />
      ) : error ? (
        <ErrorText>An error occurred while fetching meta calculations.</ErrorText>
      ) : data.data.length === 0 ? (
        <p>No meta calculations available</p>
      ) : (
        <Table striped bordered responsive size="sm" className="align-middle table-stack-phone">
          <caption className="caption-top">
            Meta-analysis results ({data.data.length}): weighted median CV (%) with its lower (Low) and upper
            (High) limit
          </caption>
          <thead>
            <HeaderRow names={['ID', 'Marker', 'Matrix', 'BV', 'Median', 'Low', 'High', 'Date', 'Tools']} />
          </thead>
          <tbody>
            {data.data.map((m) => (
              <tr key={m.id}>
                <td data-label="ID">{m.id}</td>
                <td data-label="Marker">
                  <Link to={`/analytes/${m.analyte_id}`}>{m.analyte_display_name}</Link>
                </td>
                <td data-label="Matrix">{m.matrix}</td>
                <td data-label="BV">{m.var_type === ':cvi' ? 'Within-subject' : 'Between-subject'}</td>
                <td data-label="Median">{formatMetaValue(m.median)}</td>
                <td data-label="Low">{formatMetaValue(m.lower)}</td>
                <td data-label="High">{formatMetaValue(m.upper)}</td>
                <td data-label="Date">{formatDateDmy(m.updated_at)}</td>
                <td data-label="Tools">
                  <Link
                    to={estimatePermalinkPath(m.analyte_id, m.matrix, m.var_type === ':cvi' ? 'CVI' : 'CVG')}
                    className="btn btn-outline-primary btn-sm"
                    aria-label={`View ${m.analyte_display_name} ${m.matrix} ${m.var_type === ':cvi' ? 'CVI' : 'CVG'}`}
                  >
                    View
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
