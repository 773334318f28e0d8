import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { useSubscribe } from '../api/subscribe';
import { useMemberForm } from '../use-member-form';

/** Visitors ask to hear about new estimates; stored here and sent to the list provider when configured. */
export function SubscribeForm() {
  const subscribe = useSubscribe();
  const { register, handleSubmit, reset, formState } = useMemberForm();
  const { errors } = formState;
  const onSubmit = handleSubmit((body) =>
    subscribe.mutate(body, { onSuccess: () => reset({ email: '', name: '' }) }),
  );
  return (
    <Card className="mt-3">
      <Card.Body>
        <Card.Title as="h2" className="h6">
          Keep up to date
        </Card.Title>
        <p className="small text-muted">New estimates and releases of the database, a few times a year.</p>
        <Form noValidate onSubmit={(e) => void onSubmit(e)} className="row g-2 align-items-start">
          <Form.Group className="col-md-5" controlId="subscribe-email">
            <Form.Label className="visually-hidden">Email address</Form.Label>
            <Form.Control
              type="email"
              placeholder="Email address"
              autoComplete="email"
              isInvalid={!!errors.email}
              {...register('email')}
            />
            <Form.Control.Feedback type="invalid">{errors.email?.message}</Form.Control.Feedback>
          </Form.Group>
          <Form.Group className="col-md-4" controlId="subscribe-name">
            <Form.Label className="visually-hidden">Name</Form.Label>
            <Form.Control placeholder="Name (optional)" autoComplete="name" {...register('name')} />
          </Form.Group>
          <div className="col-md-3 d-grid">
            <Button type="submit" variant="outline-primary" disabled={subscribe.isPending}>
              Subscribe
            </Button>
          </div>
        </Form>
        {subscribe.isSuccess && (
          <Alert variant="success" className="mt-2 mb-0 py-2" role="status">
            {subscribe.data.message}
          </Alert>
        )}
        {subscribe.isError && (
          <Alert variant="danger" className="mt-2 mb-0 py-2">
            {subscribe.error.message || 'An unknown error occurred.'}
          </Alert>
        )}
      </Card.Body>
    </Card>
  );
}
