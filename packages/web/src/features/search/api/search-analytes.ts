import { searchByAnalyte } from '@bvdb/contract';
import { queryOptions } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';

export const searchAnalytesQuery = (query: string) =>
  queryOptions({
    queryKey: ['search', query],
    queryFn: () => apiCall(searchByAnalyte, { query: { query, format: 'json' } }),
  });
