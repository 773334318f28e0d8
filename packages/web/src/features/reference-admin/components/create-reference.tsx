import type { ReferenceBody } from '@bvdb/contract';
import { useState, type ReactNode } from 'react';
import Alert from 'react-bootstrap/Alert';
import { useSession } from '../../../lib/session';
import { createReferenceCall } from '../api/save-reference';
import { messageOf, useSaveThenUpload } from '../use-save-then-upload';
import { emptyReferenceValues, ReferenceForm } from './reference-form';

export function CreateReference() {
  const session = useSession();
  const afterSave = useSaveThenUpload();
  const [message, setMessage] = useState<ReactNode>(null);
  return (
    <ReferenceForm
      initial={emptyReferenceValues}
      resetKey="new"
      submitLabel="Create Reference"
      message={message}
      onSubmit={async (body: ReferenceBody, file) => {
        setMessage(null);
        try {
          const { reference } = await createReferenceCall(body, session.csrf_token);
          await afterSave(reference.id, file, setMessage);
        } catch (err) {
          setMessage(<Alert variant="danger">Submission failed: {messageOf(err)}</Alert>);
        }
      }}
    />
  );
}
