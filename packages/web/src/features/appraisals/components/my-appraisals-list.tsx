import Badge from 'react-bootstrap/Badge';
import Table from 'react-bootstrap/Table';
import { Link } from 'react-router';
import { HeaderRow } from '../../../components/header-row';
import { Empty, ErrorText, Loading } from '../../../components/state-views';
import { useMyAppraisals } from '../api/my-appraisals';
import { paths } from '../../../lib/paths';

export const SLOT_LABELS = { A: 'First (A)', B: 'Second (B)', third: 'Third' } as const;

/** The datasets waiting for the signed-in assessor, then the ones they submitted. */
export function MyAppraisalsList() {
  const mine = useMyAppraisals();
  if (mine.isPending) return <Loading />;
  if (mine.error) return <ErrorText>Error: {mine.error.message}</ErrorText>;
  if (mine.data.data.length === 0) return <Empty>No datasets wait for your appraisal.</Empty>;
  return (
    <Table striped bordered responsive size="sm">
      <caption className="caption-top">Datasets assigned to you</caption>
      <thead>
        <HeaderRow names={['Dataset', 'Measurand', 'Paper', 'Your part', 'Status', 'Assigned']} />
      </thead>
      <tbody>
        {mine.data.data.map((a) => (
          <tr key={a.id}>
            <td>
              <Link to={paths.appraisal(a.id)}>{a.dataset.unique_identifier}</Link>
            </td>
            <td>{a.dataset.analyte}</td>
            <td>
              {a.reference.title ?? 'Unknown Title'}
              {a.reference.year_of_publication ? ` (${a.reference.year_of_publication})` : ''}
            </td>
            <td>{SLOT_LABELS[a.slot]}</td>
            <td>
              {a.status === 'waiting' ? (
                <Badge bg="warning" text="dark">
                  Waiting for you
                </Badge>
              ) : (
                <Badge bg="success">Submitted</Badge>
              )}
            </td>
            <td>{new Date(a.assigned_at).toLocaleDateString('en-GB')}</td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
