import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Table from 'react-bootstrap/Table';
import { NoticeAlert, type Notice } from '../../../components/notice-alert';
import { ErrorText, Loading } from '../../../components/state-views';
import { ApiError } from '../../../lib/api-client';
import { useMailingListMembers, useAddMailingListMember } from '../api/mailing-list';
import { useMemberForm } from '../use-member-form';
import { HeaderRow } from '../../../components/header-row';

/** Adds a member (success says "Worked") and lists the members. */
export function MailingListMembers() {
  const add = useAddMailingListMember();
  const members = useMailingListMembers();
  const [notice, setNotice] = useState<Notice | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useMemberForm();
  return (
    <>
      <Form
        noValidate
        style={{ maxWidth: 520 }}
        className="mb-4"
        onSubmit={(e) => {
          void handleSubmit((body) => {
            setNotice(null);
            add.mutate(body, {
              onSuccess: (res) => {
                if (res.code === 'success') {
                  setNotice({ ok: true, text: 'Worked' });
                  reset();
                }
              },
              onError: (err) =>
                setNotice({
                  ok: false,
                  text: err instanceof ApiError ? err.message : 'An unknown error occurred.',
                }),
            });
          })(e);
        }}
      >
        <Form.Group className="mb-3" controlId="mailing-email">
          <Form.Label>Email address</Form.Label>
          <Form.Control type="email" autoComplete="email" isInvalid={!!errors.email} {...register('email')} />
          <Form.Control.Feedback type="invalid">{errors.email?.message}</Form.Control.Feedback>
        </Form.Group>
        <Form.Group className="mb-3" controlId="mailing-name">
          <Form.Label>Name</Form.Label>
          <Form.Control autoComplete="name" isInvalid={!!errors.name} {...register('name')} />
          <Form.Control.Feedback type="invalid">{errors.name?.message}</Form.Control.Feedback>
        </Form.Group>
        <Button type="submit" disabled={add.isPending}>
          {add.isPending ? 'Adding...' : 'Add to mailing list'}
        </Button>
      </Form>
      <NoticeAlert notice={notice} onClose={() => setNotice(null)} />
      <h2 className="h5">Members</h2>
      {members.isPending ? (
        <Loading />
      ) : members.error ? (
        <ErrorText>Error: {members.error.message}</ErrorText>
      ) : members.data.data.length === 0 ? (
        <p>No results available</p>
      ) : (
        <Table striped bordered responsive size="sm">
          <caption className="caption-top small">Mailing-list members stored here, newest first</caption>
          <thead>
            <HeaderRow names={['Email address', 'Name', 'Sent to the mailing-list provider']} />
          </thead>
          <tbody>
            {members.data.data.map((m) => (
              <tr key={m.id}>
                <td>{m.email}</td>
                <td>{m.name ?? ''}</td>
                <td>{m.synced_at ? new Date(m.synced_at).toLocaleString() : 'No'}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </>
  );
}
