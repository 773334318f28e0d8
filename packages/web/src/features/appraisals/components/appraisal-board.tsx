import type { AppraisalSlot, BoardRow, RoundState } from '@bvdb/contract';
import { qualityItemName } from '@bvdb/domain';
import { useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Form from 'react-bootstrap/Form';
import Table from 'react-bootstrap/Table';
import { Link } from 'react-router';
import { HeaderRow } from '../../../components/header-row';
import { NoticeAlert, type Notice } from '../../../components/notice-alert';
import { Empty, ErrorText, Loading } from '../../../components/state-views';
import { ApiError } from '../../../lib/api-client';
import { useAppraisalBoard, useAssignAssessor } from '../api/appraisal-board';
import { paths } from '../../../lib/paths';

const messageOf = (err: unknown) => (err instanceof ApiError ? err.message : 'An unknown error occurred.');

const SECTIONS: { state: RoundState; title: string }[] = [
  { state: 'unassigned', title: 'Unassigned' },
  { state: 'waiting', title: 'Waiting for A/B' },
  { state: 'disputed', title: 'Disputed' },
  { state: 'final', title: 'Final' },
];

type Assessor = { id: number; email: string; name: string | null; role: string };

const age = (days: number) => (days === 0 ? 'today' : `${days} day${days === 1 ? '' : 's'}`);

/** The curators' board: rounds by state with their ages, and the assessors of each. */
export function AppraisalBoard() {
  const board = useAppraisalBoard();
  const [notice, setNotice] = useState<Notice | null>(null);
  if (board.isPending) return <Loading />;
  if (board.error) return <ErrorText>Error: {board.error.message}</ErrorText>;
  return (
    <>
      <NoticeAlert notice={notice} onClose={() => setNotice(null)} />
      {SECTIONS.map(({ state, title }) => {
        const rows = board.data.data.filter((r) => r.state === state);
        return (
          <section key={state} className="mb-4" aria-labelledby={`board-${state}`}>
            <h2 className="h5" id={`board-${state}`}>
              {title} <Badge bg="secondary">{rows.length}</Badge>
            </h2>
            {rows.length === 0 ? (
              <Empty />
            ) : (
              <Table striped bordered responsive size="sm" className="align-middle">
                <thead>
                  <HeaderRow names={['Dataset', 'Measurand', 'Assessors', 'Age']} />
                </thead>
                <tbody>
                  {rows.map((row) => (
                    <BoardLine
                      key={row.round_id}
                      row={row}
                      assessors={board.data.assessors}
                      onNotice={setNotice}
                    />
                  ))}
                </tbody>
              </Table>
            )}
          </section>
        );
      })}
    </>
  );
}

function BoardLine({
  row,
  assessors,
  onNotice,
}: {
  row: BoardRow;
  assessors: Assessor[];
  onNotice: (n: Notice) => void;
}) {
  const slots: AppraisalSlot[] =
    row.state === 'disputed' || row.assessors.some((a) => a.slot === 'third')
      ? ['A', 'B', 'third']
      : ['A', 'B'];
  return (
    <tr>
      <td>
        <Link to={paths.dataset(row.dataset.id)}>{row.dataset.unique_identifier}</Link>
        <div className="small text-body-secondary d-none d-md-block">
          {row.reference_title ?? 'Unknown Title'}
        </div>
      </td>
      <td>{row.dataset.analyte}</td>
      <td>
        {slots.map((slot) => (
          <SlotControl key={slot} row={row} slot={slot} assessors={assessors} onNotice={onNotice} />
        ))}
        {row.disputed_items.length > 0 ? (
          <div className="small" data-testid="disputed-items">
            Disputed: {row.disputed_items.map(qualityItemName).join(', ')}
          </div>
        ) : null}
      </td>
      <td>
        {age(row.age_days)}
        {row.state === 'waiting' ? (
          <div className="small text-body-secondary">waiting for {row.waiting_for.join(' and ')}</div>
        ) : null}
      </td>
    </tr>
  );
}

function SlotControl({
  row,
  slot,
  assessors,
  onNotice,
}: {
  row: BoardRow;
  slot: AppraisalSlot;
  assessors: Assessor[];
  onNotice: (n: Notice) => void;
}) {
  const assign = useAssignAssessor();
  const current = row.assessors.find((a) => a.slot === slot);
  const label = slot === 'third' ? 'Third' : slot;
  if (current?.submitted_at || row.state === 'final') {
    return (
      <div className="small">
        {label}: {current ? (current.name ?? current.email) : '—'}{' '}
        {current?.submitted_at ? <Badge bg="success">submitted</Badge> : null}
      </div>
    );
  }
  return (
    <div className="d-flex align-items-center gap-1 mb-1">
      <span className="small" style={{ minWidth: '3.5em' }}>
        {label}:
      </span>
      <Form.Select
        size="sm"
        aria-label={`Assessor ${label} of ${row.dataset.unique_identifier}`}
        style={{ minWidth: '13rem' }}
        value={current?.user_id ?? ''}
        disabled={assign.isPending}
        onChange={(e) =>
          assign.mutate(
            { roundId: row.round_id, version: row.version, slot, assessor_id: Number(e.target.value) },
            {
              onSuccess: () =>
                onNotice({ ok: true, text: `Assigned ${label} of ${row.dataset.unique_identifier}` }),
              onError: (err) => onNotice({ ok: false, text: messageOf(err) }),
            },
          )
        }
      >
        <option value="" disabled>
          Choose an assessor…
        </option>
        {assessors.map((u) => (
          <option key={u.id} value={u.id}>
            {u.name ?? u.email} ({u.role}){u.id === row.entered_by ? ' — entered it' : ''}
          </option>
        ))}
      </Form.Select>
    </div>
  );
}
