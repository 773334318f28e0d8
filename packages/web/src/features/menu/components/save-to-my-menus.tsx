import type { KeptMenu } from '@bvdb/contract';
import { useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { Link } from 'react-router';
import { useSession } from '../../../lib/session';
import { useCopyMenu } from '../api/kept-menus';
import { paths } from '../../../lib/paths';

/**
 * "Save to my menus" (decision 068): a menu opened from its link, kept by someone else or in its
 * link only, saved as the signed-in user's own named menu. The copy keeps the values and the date
 * of the original, so it says what changed since then; the link stays as it is for everyone.
 */
export function SaveToMyMenus({ menu }: { menu: KeptMenu }) {
  const session = useSession();
  const copy = useCopyMenu(menu.id);
  const [name, setName] = useState(menu.name ?? '');
  if (menu.mine) return null;
  if (session.user === null) {
    return (
      <p className="d-print-none small text-body-secondary">
        <Link to="/users/sign_in">Sign in</Link> to save this menu under a name of your own in “My menus”.
      </p>
    );
  }
  const saved = copy.data;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    copy.mutate({ name: name.trim() });
  };
  return (
    <section className="d-print-none mb-3 border rounded p-2" aria-labelledby="menu-save-mine">
      <h2 className="h6" id="menu-save-mine">
        Save to my menus
      </h2>
      {saved ? (
        <p className="mb-0">
          Saved as “{saved.name}”, with the values kept on the same day as this link.{' '}
          <Link to={paths.keptMenu(saved.id)}>Open your menu</Link> or see it under{' '}
          <Link to="/applications/menu#my-menus">My menus</Link>. This link stays as it is.
        </p>
      ) : (
        <Form onSubmit={submit} className="d-flex flex-wrap gap-2 align-items-end">
          <Form.Group controlId="menu-save-name">
            <Form.Label className="small mb-1">Name</Form.Label>
            <Form.Control
              size="sm"
              value={name}
              required
              maxLength={200}
              onChange={(e) => setName(e.target.value)}
              placeholder="e.g. Chemistry, core lab"
            />
          </Form.Group>
          <Button type="submit" size="sm" disabled={copy.isPending || name.trim() === ''}>
            {copy.isPending ? 'Saving…' : 'Save to my menus'}
          </Button>
          <span className="small text-body-secondary">
            A copy of your own, listed under My menus; it compares with the values kept on{' '}
            {new Date(menu.kept_at).toLocaleDateString('en-GB', {
              day: 'numeric',
              month: 'long',
              year: 'numeric',
              timeZone: 'UTC',
            })}
            .
          </span>
        </Form>
      )}
      {copy.error ? (
        <Alert variant="danger" role="alert" className="mt-2 mb-0">
          {copy.error.message}
        </Alert>
      ) : null}
    </section>
  );
}
