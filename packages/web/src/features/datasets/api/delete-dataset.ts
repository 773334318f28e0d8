import { deleteDataset } from '@bvdb/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { useSession } from '../../../lib/session';

/** DELETE /api/bv_specifications/{id}?version=…; on success every list and count is refetched. */
export function useDeleteDataset() {
  const session = useSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, version }: { id: number; version: number }) =>
      apiCall(deleteDataset, { params: { id }, query: { version }, csrfToken: session.csrf_token }),
    onSuccess: () => queryClient.invalidateQueries(),
  });
}
