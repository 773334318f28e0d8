import { V1_MAX_LIMIT, v1EstimateHistory } from '@bvdb/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/**
 * One estimate's versions, newest first (issue 29.5). The page shows them all: an estimate changes
 * with its studies, a handful of times, so one page of the largest size holds them.
 */
export const estimateHistoryQuery = (estimateId: number, version: number | null) =>
  queryOptions({
    // The shown version is in the key: a new one (after a recompute) reads the history again.
    queryKey: queryKeys.estimateHistory(estimateId, version),
    queryFn: ({ signal }) =>
      apiCall(v1EstimateHistory, { params: { id: estimateId }, query: { limit: V1_MAX_LIMIT }, signal }),
  });

export const useEstimateHistory = (estimateId: number, version: number | null) =>
  useQuery(estimateHistoryQuery(estimateId, version));
