import { getSiteInfo } from '@bvdb/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export const siteInfoQuery = queryOptions({
  queryKey: queryKeys.siteInfo,
  queryFn: () => apiCall(getSiteInfo),
  staleTime: Infinity,
});

export const useSiteInfo = () => useQuery(siteInfoQuery);
