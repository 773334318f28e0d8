import type { ContentSlug } from '@bvdb/contract';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import { ErrorText, Loading } from '../../../components/state-views';
import { isStaff, useSession } from '../../../lib/session';
import { useContent } from '../api/get-content';
import { ContentEditor } from './content-editor';

/**
 * A static page. Its HTML was sanitised on the server (allow-list: no scripts, handlers,
 * javascript: links or iframes), which is what makes rendering it as HTML here safe.
 */
export function ContentPage({ slug }: { slug: ContentSlug }) {
  const { data, error, isPending } = useContent(slug);
  const session = useSession();
  const [editing, setEditing] = useState(false);
  if (isPending) return <Loading />;
  if (error) return <ErrorText>Failed to load page data.</ErrorText>;
  if (editing) return <ContentEditor key={data.version ?? 0} page={data} onDone={() => setEditing(false)} />;
  return (
    <article className="content-page">
      <div className="d-flex justify-content-between align-items-start gap-2">
        <h1 className="h3" dangerouslySetInnerHTML={{ __html: data.title.rendered }} />
        {isStaff(session) && data.source === 'builtin' ? (
          <Button size="sm" variant="outline-secondary" onClick={() => setEditing(true)}>
            Edit page
          </Button>
        ) : null}
      </div>
      <div dangerouslySetInnerHTML={{ __html: data.content.rendered }} />
    </article>
  );
}
