import { listMatrices } from '@bvdb/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export const matricesQuery = queryOptions({
  queryKey: queryKeys.matrices,
  queryFn: () => apiCall(listMatrices),
});

export const useMatrices = () => useQuery(matricesQuery);
