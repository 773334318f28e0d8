import type { ValidationRow } from '@bvdb/contract';
import Badge from 'react-bootstrap/Badge';
import Table from 'react-bootstrap/Table';
import { HeaderRow } from '../../../components/header-row';

function Result({ result: [ok, reason] }: { result: ValidationRow[1] }) {
  if (ok === 1) return <span className="text-success">Included in Meta-Analysis</span>;
  return (
    <>
      <Badge bg="warning" text="dark">
        Not Validated
      </Badge>{' '}
      <span className="small">{reason}</span>
    </>
  );
}

/** "Validation table" (spec section 2): each dataset's [result, reason] for CVI and CVG. */
export function ValidationTable({ rows }: { rows: ValidationRow[] }) {
  return (
    <Table bordered responsive size="sm" className="align-middle">
      <caption className="caption-top">Validation of the selected datasets</caption>
      <thead>
        <HeaderRow names={['Reference id', 'Validation CVI', 'Validation CVG']} />
      </thead>
      <tbody>
        {rows.map(([spec, cvi, cvg]) => (
          <tr key={spec.id} data-testid={`validation-${spec.id}`}>
            <td>
              {spec.reference.id}
              <div className="small text-muted">
                Dataset {spec.id} · {spec.unique_identifier}
              </div>
            </td>
            <td>
              <Result result={cvi} />
            </td>
            <td>
              <Result result={cvg} />
            </td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
