import { formatDateDmy, formatMetaValue } from '@bvdb/domain';
import { useQuery } from '@tanstack/react-query';
import Table from 'react-bootstrap/Table';
import { Link } from 'react-router';
import { ErrorText, Loading } from '../../components/state-views';
import { metaListQuery } from '../../features/metas/api/get-counters';
import { HeaderRow } from '../../components/header-row';

export function MetaListPage() {
  const { data, error, isPending } = useQuery(metaListQuery);
  return (
    <>
      <h1 className="h3">List of BV estimates</h1>
      {isPending ? (
        <Loading />
      ) : error ? (
        <ErrorText>An error occurred while fetching meta calculations.</ErrorText>
      ) : data.data.length === 0 ? (
        <p>No meta calculations available</p>
      ) : (
        <Table striped bordered responsive size="sm">
          <caption className="caption-top">Meta-analysis results ({data.data.length})</caption>
          <thead>
            <HeaderRow
              names={[
                'Measurand',
                'Matrix',
                'Type',
                'Weighted median CV (%)',
                'Lower limit',
                'Upper limit',
                'N',
                'Date Updated',
              ]}
            />
          </thead>
          <tbody>
            {data.data.map((m) => (
              <tr key={m.id}>
                <td>
                  <Link to={`/analytes/${m.analyte_id}`}>{m.analyte_display_name}</Link>
                </td>
                <td>{m.matrix}</td>
                <td>{m.var_type === ':cvi' ? 'CVI' : 'CVG'}</td>
                <td>{formatMetaValue(m.median)}</td>
                <td>{formatMetaValue(m.lower)}</td>
                <td>{formatMetaValue(m.upper)}</td>
                <td>{m.number_used}</td>
                <td>{formatDateDmy(m.updated_at)}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </>
  );
}
