import {
  deleteLocalEstimate,
  RequiredVersionQuerySchema,
  updateLocalEstimate,
  UpdateLocalEstimateBodySchema,
  type UpdateLocalEstimateBody,
} from '@bvdb/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { useSession } from '../../../lib/session';

// A curator's edit and delete of a local estimate (decision 100), loaded only with the "Edit" and
// "Delete" buttons. The body and the version are checked by the contract's schemas before sending,
// which also keeps these two routes out of the route references every page's first load carries
// (src/lib/route-ref.ts): the measurand page is at its budget.

/**
 * A curator's edit of a local estimate's labels, of the version they saw (409 when it changed since):
 * the list is read again either way, so a conflict shows the other curator's version.
 */
export function useUpdateLocalEstimate(measurandId: number) {
  const { csrf_token: csrfToken } = useSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: UpdateLocalEstimateBody }) =>
      apiCall(updateLocalEstimate, {
        params: { id },
        body: UpdateLocalEstimateBodySchema.parse(body),
        csrfToken,
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.localEstimates(measurandId) }),
  });
}

/** A curator's delete of a local estimate, of the version they saw (409 when it changed since). */
export function useDeleteLocalEstimate(measurandId: number) {
  const { csrf_token: csrfToken } = useSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, version }: { id: number; version: number }) =>
      apiCall(deleteLocalEstimate, {
        params: { id },
        query: RequiredVersionQuerySchema.parse({ version }),
        csrfToken,
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.localEstimates(measurandId) }),
  });
}
