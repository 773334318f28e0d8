import { ROLES, type Role, type User } from '@bvdb/contract';
import { useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Table from 'react-bootstrap/Table';
import { HeaderRow } from '../../../components/header-row';
import { NoticeAlert, type Notice } from '../../../components/notice-alert';
import { Empty, ErrorText, Loading } from '../../../components/state-views';
import { ApiError } from '../../../lib/api-client';
import { useSession } from '../../../lib/session';
import { useUsers, useUserMutations } from '../api/users';

const messageOf = (err: unknown) => (err instanceof ApiError ? err.message : 'An unknown error occurred.');

const ROLE_LABELS: Record<Role, string> = {
  admin: 'Administrator',
  curator: 'Curator',
  assessor: 'Assessor',
};

/** The users with their roles: create, change role, reset password, deactivate (administrators). */
export function UsersAdmin() {
  const users = useUsers();
  const [notice, setNotice] = useState<Notice | null>(null);
  if (users.isPending) return <Loading />;
  if (users.error) return <ErrorText>Error: {users.error.message}</ErrorText>;
  return (
    <>
      <NewUserForm onNotice={setNotice} />
      <NoticeAlert notice={notice} onClose={() => setNotice(null)} />
      {users.data.data.length === 0 ? (
        <Empty />
      ) : (
        <Table striped bordered responsive size="sm">
          <caption className="caption-top">Users and their roles</caption>
          <thead>
            <HeaderRow names={['E-mail', 'Name', 'Role', 'Status', 'Actions']} />
          </thead>
          <tbody>
            {users.data.data.map((u) => (
              <UserRow key={u.id} user={u} onNotice={setNotice} />
            ))}
          </tbody>
        </Table>
      )}
    </>
  );
}

function NewUserForm({ onNotice }: { onNotice: (n: Notice) => void }) {
  const m = useUserMutations();
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('assessor');
  const [password, setPassword] = useState('');
  return (
    <Form
      className="d-flex flex-wrap align-items-end gap-2 mb-3"
      aria-label="New user"
      onSubmit={(e) => {
        e.preventDefault();
        m.create.mutate(
          { email: email.trim(), name: name.trim() || null, role, password },
          {
            onSuccess: (u) => {
              setEmail('');
              setName('');
              setPassword('');
              onNotice({ ok: true, text: `Created ${ROLE_LABELS[u.role].toLowerCase()} ${u.email}` });
            },
            onError: (err) => onNotice({ ok: false, text: messageOf(err) }),
          },
        );
      }}
    >
      <Form.Group controlId="new-user-email">
        <Form.Label>E-mail</Form.Label>
        <Form.Control type="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
      </Form.Group>
      <Form.Group controlId="new-user-name">
        <Form.Label>Name</Form.Label>
        <Form.Control value={name} maxLength={200} onChange={(e) => setName(e.target.value)} />
      </Form.Group>
      <Form.Group controlId="new-user-role">
        <Form.Label>Role</Form.Label>
        <Form.Select value={role} onChange={(e) => setRole(e.target.value as Role)}>
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {ROLE_LABELS[r]}
            </option>
          ))}
        </Form.Select>
      </Form.Group>
      <Form.Group controlId="new-user-password">
        <Form.Label>Password</Form.Label>
        <Form.Control
          type="password"
          autoComplete="new-password"
          required
          minLength={8}
          maxLength={128}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
      </Form.Group>
      <Button type="submit" disabled={m.create.isPending}>
        Create user
      </Button>
    </Form>
  );
}

function UserRow({ user, onNotice }: { user: User; onNotice: (n: Notice) => void }) {
  const m = useUserMutations();
  const me = useSession().user_id === user.id;
  const [resetting, setResetting] = useState(false);
  const [password, setPassword] = useState('');
  const update = (change: { role?: Role; active?: boolean }, text: string) =>
    m.update.mutate(
      { id: user.id, version: user.version, ...change },
      {
        onSuccess: () => onNotice({ ok: true, text }),
        onError: (err) => onNotice({ ok: false, text: messageOf(err) }),
      },
    );
  return (
    <tr>
      <td>{user.email}</td>
      <td>{user.name ?? ''}</td>
      <td>
        <Form.Select
          size="sm"
          aria-label={`Role of ${user.email}`}
          style={{ minWidth: '9rem' }}
          value={user.role}
          disabled={me || m.update.isPending}
          onChange={(e) => {
            const role = e.target.value as Role;
            update({ role }, `${user.email} is now ${ROLE_LABELS[role].toLowerCase()}`);
          }}
        >
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {ROLE_LABELS[r]}
            </option>
          ))}
        </Form.Select>
      </td>
      <td>{user.active ? <Badge bg="success">Active</Badge> : <Badge bg="secondary">Deactivated</Badge>}</td>
      <td>
        {resetting ? (
          <Form
            className="d-flex gap-1"
            onSubmit={(e) => {
              e.preventDefault();
              m.resetPassword.mutate(
                { id: user.id, password },
                {
                  onSuccess: () => {
                    setResetting(false);
                    setPassword('');
                    onNotice({ ok: true, text: `New password set for ${user.email}` });
                  },
                  onError: (err) => onNotice({ ok: false, text: messageOf(err) }),
                },
              );
            }}
          >
            <Form.Control
              size="sm"
              type="password"
              autoComplete="new-password"
              aria-label={`New password for ${user.email}`}
              minLength={8}
              maxLength={128}
              required
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
            <Button size="sm" type="submit" disabled={m.resetPassword.isPending}>
              Save
            </Button>
            <Button size="sm" variant="outline-secondary" onClick={() => setResetting(false)}>
              Cancel
            </Button>
          </Form>
        ) : (
          <div className="d-flex flex-wrap gap-1">
            <Button
              size="sm"
              variant="outline-secondary"
              aria-label={`Reset the password of ${user.email}`}
              onClick={() => setResetting(true)}
            >
              Reset password
            </Button>
            {me ? null : (
              <Button
                size="sm"
                variant={user.active ? 'outline-danger' : 'outline-success'}
                aria-label={`${user.active ? 'Deactivate' : 'Reactivate'} ${user.email}`}
                disabled={m.update.isPending}
                onClick={() =>
                  update(
                    { active: !user.active },
                    `${user.email} is ${user.active ? 'deactivated' : 'active again'}`,
                  )
                }
              >
                {user.active ? 'Deactivate' : 'Reactivate'}
              </Button>
            )}
          </div>
        )}
      </td>
    </tr>
  );
}
