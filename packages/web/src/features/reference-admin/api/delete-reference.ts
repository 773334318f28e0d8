import { deleteReference } from '@bvdb/contract';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { useSession } from '../../../lib/session';
import { referenceChangeKeys, useInvalidate } from '../../../lib/query-keys';

/**
 * DELETE /api/references/{id}?version=… (the version the person saw: a reference changed since is
 * refused with 409); on success every read a reference change touches is read again.
 */
export function useDeleteReference() {
  const session = useSession();
  const invalidate = useInvalidate(referenceChangeKeys);
  return useMutation({
    mutationFn: ({ id, version }: { id: number; version: number }) =>
      apiCall(deleteReference, { params: { id }, query: { version }, csrfToken: session.csrf_token }),
    onSuccess: invalidate,
  });
}
