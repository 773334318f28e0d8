import { statsServiceInfo } from '@bvdb/contract';
import { queryOptions } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';

export const statsServiceQuery = queryOptions({
  queryKey: ['stats-service'],
  queryFn: ({ signal }) => apiCall(statsServiceInfo, { signal }),
});
