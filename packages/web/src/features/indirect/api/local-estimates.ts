import {
  createLocalEstimate,
  deleteLocalEstimate,
  listLocalEstimates,
  updateLocalEstimate,
  type CreateLocalEstimateBody,
  type UpdateLocalEstimateBody,
} from '@bvdb/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { useSession } from '../../../lib/session';

/** A measurand's local estimates from routine data (decision 095): shown apart from the meta-analysis. */
export const localEstimatesQuery = (id: number) =>
  queryOptions({
    queryKey: queryKeys.localEstimates(id),
    queryFn: () => apiCall(listLocalEstimates, { params: { id } }),
  });

export const useLocalEstimates = (id: number) => useQuery(localEstimatesQuery(id));

/** Keeps a run's summary (never its rows) as a local estimate of the measurand: curators. */
export function useCreateLocalEstimate(id: number) {
  const { csrf_token: csrfToken } = useSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateLocalEstimateBody) =>
      apiCall(createLocalEstimate, { params: { id }, body, csrfToken }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.localEstimates(id) }),
  });
}

/**
 * A curator's edit of a local estimate's labels, of the version they saw (409 when it changed since):
 * the list is read again either way, so a conflict shows the other curator's version.
 */
export function useUpdateLocalEstimate(measurandId: number) {
  const { csrf_token: csrfToken } = useSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: UpdateLocalEstimateBody }) =>
      apiCall(updateLocalEstimate, { params: { id }, body, csrfToken }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.localEstimates(measurandId) }),
  });
}

/** A curator's delete of a local estimate, of the version they saw (409 when it changed since). */
export function useDeleteLocalEstimate(measurandId: number) {
  const { csrf_token: csrfToken } = useSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, version }: { id: number; version: number }) =>
      apiCall(deleteLocalEstimate, { params: { id }, query: { version }, csrfToken }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.localEstimates(measurandId) }),
  });
}
