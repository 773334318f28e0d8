import { getAnalyte, listAnalytesWithCounts } from '@bvdb/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export const analytesWithCountsQuery = queryOptions({
  queryKey: queryKeys.analytesWithCounts,
  queryFn: () => apiCall(listAnalytesWithCounts),
});

export const analyteQuery = (id: number) =>
  queryOptions({ queryKey: queryKeys.analyte(id), queryFn: () => apiCall(getAnalyte, { params: { id } }) });

export const useAnalytesWithCounts = () => useQuery(analytesWithCountsQuery);
export const useAnalyte = (id: number) => useQuery(analyteQuery(id));
