import { searchByAnalyte } from '@bvdb/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export const searchAnalytesQuery = (query: string) =>
  queryOptions({
    queryKey: queryKeys.search(query),
    queryFn: () => apiCall(searchByAnalyte, { query: { query, format: 'json' } }),
  });

export const useSearchAnalytes = (query: string) => useQuery(searchAnalytesQuery(query));
