import type { KeptMenuResponse, MenuChange } from '@bvdb/contract';
import { useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useNavigate } from 'react-router';
import { keptMenuSheetUrl, useDeleteMenu, useUpdateMenu } from '../api/kept-menus';
import { MenuLink } from './keep-menu';
import { MenuSheet } from './menu-sheet';
import { SaveToMyMenus } from './save-to-my-menus';

/** A date as the page names it: "27 November 2026". */
export const dayOf = (iso: string) =>
  new Date(iso).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });

/** "Changed since {date}": each change in words with before → now; "No change since {date}" otherwise. */
export function MenuChanges({ changes, since }: { changes: MenuChange[]; since: string }) {
  if (changes.length === 0) {
    return (
      <Alert variant="success" className="py-2">
        No change since {dayOf(since)}.
      </Alert>
    );
  }
  return (
    <section className="alert alert-warning py-2" aria-labelledby="menu-changes">
      <h2 className="h6" id="menu-changes">
        Changed since {dayOf(since)} ({changes.length} {changes.length === 1 ? 'change' : 'changes'})
      </h2>
      <ul className="mb-0 ps-3">
        {changes.map((c) => (
          <li key={`${c.line}-${c.what}`}>
            Line {c.line}, <strong>{c.test}</strong>: {c.what} {c.before} → {c.now}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The owner's tools: rename, mark as reviewed (keep today's values), delete. */
function OwnerTools({ data }: { data: KeptMenuResponse }) {
  const { menu } = data;
  const update = useUpdateMenu(menu.id);
  const remove = useDeleteMenu();
  const navigate = useNavigate();
  const [name, setName] = useState(menu.name ?? '');
  const rename = (e: FormEvent) => {
    e.preventDefault();
    update.mutate({ version: menu.version, name: name.trim() ? name.trim() : null });
  };
  const error = update.error ?? remove.error;
  return (
    <section className="d-print-none mb-3 border rounded p-2" aria-labelledby="menu-owner">
      <h2 className="h6" id="menu-owner">
        Your menu
      </h2>
      <Form onSubmit={rename} className="d-flex flex-wrap gap-2 align-items-end mb-2">
        <Form.Group controlId="kept-menu-name">
          <Form.Label className="small mb-1">Name</Form.Label>
          <Form.Control size="sm" value={name} maxLength={200} onChange={(e) => setName(e.target.value)} />
        </Form.Group>
        <Button type="submit" size="sm" variant="outline-primary" disabled={update.isPending}>
          Rename
        </Button>
        <Button
          size="sm"
          variant="outline-success"
          disabled={update.isPending || data.changes.length === 0}
          onClick={() => update.mutate({ version: menu.version, review: true })}
        >
          Mark as reviewed
        </Button>
        <Button
          size="sm"
          variant="outline-danger"
          disabled={remove.isPending}
          onClick={() => {
            if (window.confirm('Delete this menu? Its link stops working.'))
              remove.mutate(menu.id, { onSuccess: () => void navigate('/applications/menu') });
          }}
        >
          Delete
        </Button>
      </Form>
      <p className="small text-body-secondary mb-0">
        Mark as reviewed keeps today’s values: the next time the menu opens, it says what changed since today.
      </p>
      {error ? (
        <Alert variant="danger" role="alert" className="mt-2 mb-0">
          {error.message}
        </Alert>
      ) : null}
    </section>
  );
}

/** A kept menu opened again (issue 32.4): what changed since it was kept, then the sheet with today's values. */
export function KeptMenuView({ data }: { data: KeptMenuResponse }) {
  const { menu, sheet, changes } = data;
  return (
    <>
      <p className="mb-2">
        {menu.tests} {menu.tests === 1 ? 'test' : 'tests'}, kept on {dayOf(menu.kept_at)}; the sheet below
        uses today’s values.{' '}
        {menu.expires_at
          ? `A menu kept in its link is deleted 13 months after it was last opened: on ${dayOf(menu.expires_at)} unless opened again.`
          : null}
      </p>
      {menu.population ? (
        <p className="mb-2" data-testid="kept-menu-population">
          <strong>Kept for a population: {menu.population.label}.</strong> Every test below is judged with its
          measurand’s estimates recomputed for this population (not the global estimate), and the values kept
          on {dayOf(menu.kept_at)} were this population’s too.
        </p>
      ) : null}
      <div className="d-print-none mb-2">
        <MenuLink menu={menu} />
      </div>
      <MenuChanges changes={changes} since={menu.kept_at} />
      {menu.mine ? <OwnerTools key={menu.version} data={data} /> : <SaveToMyMenus menu={menu} />}
      <div className="d-flex flex-wrap gap-2 mb-2 d-print-none">
        <a className="btn btn-outline-primary btn-sm" href={keptMenuSheetUrl(menu.id)} download>
          Download the sheet (xlsx)
        </a>
        <Button variant="outline-secondary" size="sm" onClick={() => window.print()}>
          Print
        </Button>
      </div>
      <MenuSheet answer={sheet} />
    </>
  );
}
