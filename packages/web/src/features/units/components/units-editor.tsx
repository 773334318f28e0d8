import type { Unit } from '@bvdb/contract';
import { unitSymbol } from '@bvdb/domain';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Table from 'react-bootstrap/Table';
import { NoticeAlert, type Notice } from '../../../components/notice-alert';
import { ErrorText, Loading } from '../../../components/state-views';
import { ApiError } from '../../../lib/api-client';
import { useUnits, useUnitMutations } from '../api/units';
import { HeaderRow } from '../../../components/header-row';

const messageOf = (err: unknown) => (err instanceof ApiError ? err.message : 'An unknown error occurred.');

/** The units with their dataset counts: add, rename, delete when unused. */
export function UnitsEditor() {
  const units = useUnits();
  const m = useUnitMutations();
  const [name, setName] = useState('');
  const [notice, setNotice] = useState<Notice | null>(null);
  const [editing, setEditing] = useState<number | null>(null);
  if (units.isPending) return <Loading />;
  if (units.error) return <ErrorText>Error: {units.error.message}</ErrorText>;
  return (
    <>
      <Form
        className="d-flex flex-wrap align-items-end gap-2 mb-3"
        onSubmit={(e) => {
          e.preventDefault();
          setNotice(null);
          m.create.mutate(name.trim(), {
            onSuccess: ({ unit }) => {
              setName('');
              setNotice({ ok: true, text: `Added "${unit.name}"` });
            },
            onError: (err) => setNotice({ ok: false, text: messageOf(err) }),
          });
        }}
      >
        <Form.Group controlId="new-unit">
          <Form.Label>New unit</Form.Label>
          <Form.Control
            value={name}
            onChange={(e) => setName(e.target.value)}
            maxLength={100}
            placeholder="e.g. mmol/L"
          />
        </Form.Group>
        <Button type="submit" disabled={name.trim() === '' || m.create.isPending}>
          Add unit
        </Button>
      </Form>
      <NoticeAlert notice={notice} onClose={() => setNotice(null)} />
      {units.data.data.length === 0 ? (
        <p>No results available</p>
      ) : (
        <Table striped bordered responsive size="sm" style={{ maxWidth: 760 }}>
          <caption className="caption-top">
            Units and the datasets using them (as unit or second unit)
          </caption>
          <thead>
            <HeaderRow names={['Unit', 'Used In', 'Actions']} />
          </thead>
          <tbody>
            {units.data.data.map((u) =>
              editing === u.id ? (
                <RenameRow
                  key={u.id}
                  unit={u}
                  onDone={(n) => {
                    setEditing(null);
                    if (n) setNotice(n);
                  }}
                />
              ) : (
                <tr key={u.id}>
                  <td>
                    {u.name}
                    {unitSymbol(u.name) !== u.name && (
                      <span className="text-muted"> (shown as {unitSymbol(u.name)})</span>
                    )}
                  </td>
                  <td>
                    {u.usage_count} dataset{u.usage_count === 1 ? '' : 's'}
                  </td>
                  <td className="text-nowrap">
                    <Button
                      size="sm"
                      variant="outline-secondary"
                      className="me-1"
                      aria-label={`Rename ${u.name}`}
                      onClick={() => setEditing(u.id)}
                    >
                      Rename
                    </Button>
                    <Button
                      size="sm"
                      variant="outline-danger"
                      aria-label={`Delete ${u.name}`}
                      onClick={() => {
                        setNotice(null);
                        m.remove.mutate(
                          { id: u.id, version: u.version },
                          {
                            onSuccess: () => setNotice({ ok: true, text: `Deleted "${u.name}"` }),
                            onError: (err) => setNotice({ ok: false, text: messageOf(err) }),
                          },
                        );
                      }}
                    >
                      Delete
                    </Button>
                  </td>
                </tr>
              ),
            )}
          </tbody>
        </Table>
      )}
    </>
  );
}

function RenameRow({ unit, onDone }: { unit: Unit; onDone: (n: Notice | null) => void }) {
  const m = useUnitMutations();
  const [name, setName] = useState(unit.name);
  const save = () =>
    m.rename.mutate(
      { id: unit.id, name: name.trim(), version: unit.version },
      {
        onSuccess: ({ unit: saved }) =>
          onDone({ ok: true, text: `Renamed "${unit.name}" to "${saved.name}"` }),
        onError: (err) => onDone({ ok: false, text: messageOf(err) }),
      },
    );
  return (
    <tr>
      <td>
        <Form.Control
          size="sm"
          aria-label={`New name for ${unit.name}`}
          value={name}
          maxLength={100}
          autoFocus
          onChange={(e) => setName(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') save();
            if (e.key === 'Escape') onDone(null);
          }}
        />
      </td>
      <td>
        {unit.usage_count} dataset{unit.usage_count === 1 ? '' : 's'}
      </td>
      <td className="text-nowrap">
        <Button size="sm" className="me-1" disabled={name.trim() === '' || m.rename.isPending} onClick={save}>
          Save
        </Button>
        <Button size="sm" variant="secondary" onClick={() => onDone(null)}>
          Cancel
        </Button>
      </td>
    </tr>
  );
}
