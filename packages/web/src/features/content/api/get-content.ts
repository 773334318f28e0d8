import { getContentPage, type ContentSlug } from '@bvdb/contract';
import { queryOptions } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';

export const contentQuery = (slug: ContentSlug) =>
  queryOptions({ queryKey: ['content', slug], queryFn: () => apiCall(getContentPage, { params: { slug } }) });
