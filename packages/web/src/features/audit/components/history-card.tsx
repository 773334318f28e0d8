import { formatDateTimeDmy } from '@bvdb/domain';
import Card from 'react-bootstrap/Card';
import Table from 'react-bootstrap/Table';
import { ErrorText, Loading } from '../../../components/state-views';
import { useAuditHistory } from '../api/get-audit-history';
import type { AuditEntity } from '@bvdb/contract';
import { HeaderRow } from '../../../components/header-row';

const ACTION = {
  create: 'Created',
  update: 'Edited',
  delete: 'Deleted',
  appraisal_opened: 'Sent to appraisal',
  assessor_assigned: 'Assessor assigned',
  appraisal_submitted: 'Appraisal submitted',
  appraisal_disputed: 'Appraisals disagree',
  appraisal_final: 'Final grades set',
  export: 'Complete backup downloaded',
} as const;

/** Who changed a dataset or reference, when, and which fields (signed-in users only). */
export function HistoryCard({ entity, id, noun }: { entity: AuditEntity; id: number; noun: string }) {
  const history = useAuditHistory(entity, id);
  return (
    <Card className="mt-3">
      <Card.Header as="h2" className="h6 mb-0">
        Change history
      </Card.Header>
      <Card.Body>
        {history.isPending ? (
          <Loading />
        ) : history.error ? (
          <ErrorText>Error: {history.error.message}</ErrorText>
        ) : history.data.data.length === 0 ? (
          <p className="mb-0 text-muted">No changes recorded (this {noun} predates the change history).</p>
        ) : (
          // One card per change on a phone: the e-mail and the fields are never cut off (issue 27.10).
          <Table size="sm" className="mb-0 table-stack-phone">
            <caption className="caption-top small">Changes to this {noun}, newest first</caption>
            <thead>
              <HeaderRow names={['When', 'Who', 'What', 'Fields changed']} />
            </thead>
            <tbody>
              {history.data.data.map((e) => (
                <tr key={e.id}>
                  <td data-label="When">{formatDateTimeDmy(e.created_at)}</td>
                  <td className="text-break" data-label="Who">
                    {e.user_email ?? 'A deleted account'}
                  </td>
                  <td data-label="What">{ACTION[e.action]}</td>
                  <td className="text-break" data-label="Fields changed">
                    {e.action === 'update' ? e.changed.join(', ') || '—' : '—'}
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </Card.Body>
    </Card>
  );
}
