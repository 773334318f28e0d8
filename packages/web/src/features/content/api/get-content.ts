import { getContentPage, type ContentSlug } from '@bvdb/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export const contentQuery = (slug: ContentSlug) =>
  queryOptions({
    queryKey: queryKeys.content(slug),
    queryFn: () => apiCall(getContentPage, { params: { slug } }),
  });

export const useContent = (slug: ContentSlug) => useQuery(contentQuery(slug));
