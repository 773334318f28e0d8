import { deleteReference } from '@bvdb/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { useSession } from '../../../lib/session';

/** DELETE /api/references/{id}; on success every reference list and count is refetched. */
export function useDeleteReference() {
  const session = useSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiCall(deleteReference, { params: { id }, csrfToken: session.csrf_token }),
    onSuccess: () => queryClient.invalidateQueries(),
  });
}
