import { deleteReference } from '@bvdb/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { useSession } from '../../../lib/session';

/**
 * DELETE /api/references/{id}?version=… (the version the person saw: a reference changed since is
 * refused with 409); on success every reference list and count is refetched.
 */
export function useDeleteReference() {
  const session = useSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, version }: { id: number; version: number }) =>
      apiCall(deleteReference, { params: { id }, query: { version }, csrfToken: session.csrf_token }),
    onSuccess: () => queryClient.invalidateQueries(),
  });
}
