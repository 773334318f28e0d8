import { updateContentPage, type ContentPage } from '@bvdb/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { apiCall, ApiError } from '../../../lib/api-client';
import { useSession } from '../../../lib/session';
import { queryKeys } from '../../../lib/query-keys';

/** A plain Markdown editor for the built-in pages; a stale version is refused by the server (409). */
export function ContentEditor({ page, onDone }: { page: ContentPage; onDone: () => void }) {
  const session = useSession();
  const queryClient = useQueryClient();
  const [title, setTitle] = useState(page.title.rendered);
  const [markdown, setMarkdown] = useState(page.markdown ?? '');
  const [error, setError] = useState<string | null>(null);
  return (
    <Form
      onSubmit={(e) => {
        e.preventDefault();
        apiCall(updateContentPage, {
          params: { slug: page.slug },
          body: { title, markdown, version: page.version ?? 1 },
          csrfToken: session.csrf_token,
        })
          .then(async (saved) => {
            queryClient.setQueryData(queryKeys.content(page.slug), saved);
            await queryClient.invalidateQueries({ queryKey: queryKeys.content(page.slug) });
            onDone();
          })
          .catch((err: unknown) => setError(err instanceof ApiError ? err.message : 'Saving failed'));
      }}
    >
      {error ? <Alert variant="danger">{error}</Alert> : null}
      <Form.Group className="mb-3" controlId="content-title">
        <Form.Label>Title</Form.Label>
        <Form.Control value={title} onChange={(e) => setTitle(e.target.value)} maxLength={200} required />
      </Form.Group>
      <Form.Group className="mb-3" controlId="content-markdown">
        <Form.Label>Text (Markdown)</Form.Label>
        <Form.Control
          as="textarea"
          rows={16}
          value={markdown}
          onChange={(e) => setMarkdown(e.target.value)}
          className="font-monospace"
        />
      </Form.Group>
      <div className="d-flex gap-2">
        <Button type="submit">Save</Button>
        <Button variant="secondary" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </Form>
  );
}
