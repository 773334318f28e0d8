import { statsServiceInfo } from '@bvdb/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export const statsServiceQuery = queryOptions({
  queryKey: queryKeys.statsService,
  queryFn: ({ signal }) => apiCall(statsServiceInfo, { signal }),
});

export const useStatsService = () => useQuery(statsServiceQuery);
