import { getAnalyte, listAnalytesWithCounts } from '@bvdb/contract';
import { queryOptions } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';

export const analytesWithCountsQuery = queryOptions({
  queryKey: ['analytes-with-counts'],
  queryFn: () => apiCall(listAnalytesWithCounts),
});

export const analyteQuery = (id: number) =>
  queryOptions({ queryKey: ['analyte', id], queryFn: () => apiCall(getAnalyte, { params: { id } }) });
