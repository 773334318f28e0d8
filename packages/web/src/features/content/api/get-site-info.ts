import { getSiteInfo } from '@bvdb/contract';
import { queryOptions } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';

export const siteInfoQuery = queryOptions({
  queryKey: ['site-info'],
  queryFn: () => apiCall(getSiteInfo),
  staleTime: Infinity,
});
