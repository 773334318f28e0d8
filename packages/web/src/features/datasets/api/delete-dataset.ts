import { deleteDataset } from '@bvdb/contract';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { useSession } from '../../../lib/session';
import { datasetChangeKeys, useInvalidate } from '../../../lib/query-keys';

/** DELETE /api/bv_specifications/{id}?version=…; on success every read a dataset change touches is read again. */
export function useDeleteDataset() {
  const session = useSession();
  const invalidate = useInvalidate(datasetChangeKeys);
  return useMutation({
    mutationFn: ({ id, version }: { id: number; version: number }) =>
      apiCall(deleteDataset, { params: { id }, query: { version }, csrfToken: session.csrf_token }),
    onSuccess: invalidate,
  });
}
