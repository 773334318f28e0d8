import {
  LINK_MENU_RETENTION_MONTHS,
  type KeptMenu,
  type MenuResponse,
  type MenuTestInput,
} from '@bvdb/contract';
import { useRef, useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { Link } from 'react-router';
import { copyText } from '../../../lib/copy-text';
import { useSession } from '../../../lib/session';
import { facetFieldsOf, type MenuChoices } from '../api/create-menu';
import { useSaveMenu } from '../api/kept-menus';

/** The page's own address for a kept menu (the server names it absolutely when PUBLIC_URL is set). */
export const menuLink = (menu: Pick<KeptMenu, 'url'>) =>
  menu.url.startsWith('/') && typeof window !== 'undefined'
    ? `${window.location.origin}${menu.url}`
    : menu.url;

/** The link of a kept menu with a copy button. */
export function MenuLink({ menu }: { menu: Pick<KeptMenu, 'url'> }) {
  const field = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState<boolean | null>(null);
  const link = menuLink(menu);
  return (
    <div className="d-flex flex-wrap gap-2 align-items-center">
      <Form.Control
        ref={field}
        readOnly
        value={link}
        aria-label="Link to this menu"
        className="flex-grow-1"
        style={{ minWidth: '12rem', maxWidth: '40rem' }}
        onFocus={(e) => e.target.select()}
      />
      <Button
        size="sm"
        variant="outline-primary"
        onClick={() => void copyText(link, field.current as unknown as HTMLTextAreaElement).then(setCopied)}
      >
        Copy link
      </Button>
      <span role="status" className="small">
        {copied === true ? 'Copied to the clipboard' : copied === false ? 'Select the link and copy it' : ''}
      </span>
    </div>
  );
}

/**
 * "Keep this menu" (issue 32.4): stores the menu as resolved with the values the sheet shows, so
 * the same sheet opens again from its link and says what changed since. Signed-in users may name it.
 * A sheet judged for a population is kept for it (decision 101): it opens again judged for it.
 */
export function KeepMenu({
  tests,
  choices,
  population,
}: {
  tests: MenuTestInput[];
  choices: MenuChoices;
  /** The population the sheet shown was judged for; none: the global estimates. */
  population?: MenuResponse['population'];
}) {
  const session = useSession();
  const save = useSaveMenu();
  const [name, setName] = useState('');
  const signedIn = session.user !== null;
  const kept = save.data;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate({
      tests,
      ...choices,
      ...facetFieldsOf(population),
      ...(signedIn && name.trim() ? { name: name.trim() } : {}),
    });
  };
  return (
    <section className="d-print-none mb-3 border rounded p-2" aria-labelledby="menu-keep">
      <h2 className="h6" id="menu-keep">
        Keep this menu
      </h2>
      {kept ? (
        <>
          <p className="mb-1">
            Kept{kept.name ? ` as “${kept.name}”` : ''}
            {kept.population ? ` for the population ${kept.population.label}` : ''}. Open this link again next
            month: it shows the sheet with that day’s values and what changed since today
            {kept.population ? ', every test judged for this population' : ''}.
          </p>
          <MenuLink menu={kept} />
          <p className="small text-body-secondary mt-1 mb-0">
            {kept.owned ? (
              <>
                Listed under <Link to="/applications/menu#my-menus">My menus</Link> until you delete it.
              </>
            ) : (
              `Anyone with the link can open it. A menu kept in its link is deleted ${LINK_MENU_RETENTION_MONTHS} months after it was last opened.`
            )}
          </p>
        </>
      ) : (
        <Form onSubmit={submit} className="d-flex flex-wrap gap-2 align-items-end">
          {signedIn ? (
            <Form.Group controlId="menu-name">
              <Form.Label className="small mb-1">Name (optional)</Form.Label>
              <Form.Control
                size="sm"
                value={name}
                maxLength={200}
                onChange={(e) => setName(e.target.value)}
                placeholder="e.g. Chemistry, core lab"
              />
            </Form.Group>
          ) : null}
          <Button type="submit" size="sm" disabled={save.isPending}>
            {save.isPending ? 'Keeping…' : 'Keep this menu'}
          </Button>
          <span className="small text-body-secondary">
            {signedIn
              ? 'Kept as yours, with a link to share.'
              : `Kept in a link (deleted ${LINK_MENU_RETENTION_MONTHS} months after it was last opened).`}
            {population ? ` Kept for the population ${population.label}.` : ''}
          </span>
        </Form>
      )}
      {save.error ? (
        <Alert variant="danger" role="alert" className="mt-2 mb-0">
          {save.error.message}
        </Alert>
      ) : null}
    </section>
  );
}
