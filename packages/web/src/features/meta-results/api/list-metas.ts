import { V1_MAX_LIMIT, v1ListMetas } from '@bvdb/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** Every displayed result (the list page shows them all), read page by page from the v1 API. */
export const metaListQuery = queryOptions({
  queryKey: queryKeys.metaList,
  queryFn: async () => {
    const first = await apiCall(v1ListMetas, { query: { limit: V1_MAX_LIMIT } });
    const data = [...first.data];
    for (let next = first.meta.next_offset; next !== null;) {
      const page = await apiCall(v1ListMetas, { query: { limit: V1_MAX_LIMIT, offset: next } });
      data.push(...page.data);
      next = page.meta.next_offset;
    }
    return { data, total: first.meta.total };
  },
});

export const useMetaList = () => useQuery(metaListQuery);
