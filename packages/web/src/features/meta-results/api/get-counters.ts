import { getCounters } from '@bvdb/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** The counters of the home page (GET /api/meta), shown on the dashboard too. */
export const countersQuery = queryOptions({
  queryKey: queryKeys.counters,
  queryFn: () => apiCall(getCounters),
});

export const useCounters = () => useQuery(countersQuery);
