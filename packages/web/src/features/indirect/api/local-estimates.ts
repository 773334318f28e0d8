import { createLocalEstimate, listLocalEstimates, type CreateLocalEstimateBody } from '@bvdb/contract';
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
