import { getLookups } from '@bvdb/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from './api-client';
import { queryKeys } from './query-keys';

/**
 * Matrices, states of well-being, diseases, ethnicities, units and methods, in one call: shared by
 * the dataset form and the population chooser (a component, which reads no feature).
 */
export const lookupsQuery = queryOptions({
  queryKey: queryKeys.lookups,
  queryFn: ({ signal }) => apiCall(getLookups, { signal }),
  staleTime: 5 * 60_000,
});

export const useLookups = () => useQuery(lookupsQuery);
