import { createUnit, deleteUnit, listUnits, updateUnit } from '@bvdb/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { useSession } from '../../../lib/session';

export const unitsQuery = queryOptions({ queryKey: ['units'], queryFn: () => apiCall(listUnits) });

/**
 * Add, rename and delete; each refetches the units and the form lookups. Rename and delete send the
 * version the list showed, so a change someone made since is refused (409) rather than overwritten.
 */
export function useUnitMutations() {
  const { csrf_token: csrfToken } = useSession();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries();
  return {
    create: useMutation({
      mutationFn: (name: string) => apiCall(createUnit, { body: { name }, csrfToken }),
      onSettled: refresh,
    }),
    rename: useMutation({
      mutationFn: (v: { id: number; name: string; version: number }) =>
        apiCall(updateUnit, { params: { id: v.id }, body: { name: v.name, version: v.version }, csrfToken }),
      onSettled: refresh,
    }),
    remove: useMutation({
      mutationFn: (v: { id: number; version: number }) =>
        apiCall(deleteUnit, { params: { id: v.id }, query: { version: v.version }, csrfToken }),
      onSettled: refresh,
    }),
  };
}
