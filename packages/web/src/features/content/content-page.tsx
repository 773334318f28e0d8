import type { ContentSlug } from '@bvdb/contract';
import { useQuery } from '@tanstack/react-query';
import { ErrorText, Loading } from '../../components/state-views';
import { contentQuery } from './api/get-content';

/**
 * A static page. Its HTML was sanitised on the server (allow-list: no scripts, handlers,
 * javascript: links or iframes), which is what makes rendering it as HTML here safe.
 */
export function ContentPage({ slug }: { slug: ContentSlug }) {
  const { data, error, isPending } = useQuery(contentQuery(slug));
  if (isPending) return <Loading />;
  if (error) return <ErrorText>Failed to load page data.</ErrorText>;
  return (
    <article className="content-page">
      <h1 className="h3" dangerouslySetInnerHTML={{ __html: data.title.rendered }} />
      <div dangerouslySetInnerHTML={{ __html: data.content.rendered }} />
    </article>
  );
}
