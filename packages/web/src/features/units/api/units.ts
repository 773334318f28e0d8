import { createUnit, deleteUnit, listUnits, updateUnit } from '@bvdb/contract';
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { useSession } from '../../../lib/session';
import { queryKeys, unitChangeKeys, useInvalidate } from '../../../lib/query-keys';

export const unitsQuery = queryOptions({ queryKey: queryKeys.units, queryFn: () => apiCall(listUnits) });

/**
 * Add, rename and delete; each reads again the units, the form lookups and every answer that shows a unit's name. Rename and delete send the
 * version the list showed, so a change someone made since is refused (409) rather than overwritten.
 */
export function useUnitMutations() {
  const { csrf_token: csrfToken } = useSession();
  const refresh = useInvalidate(unitChangeKeys);
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

export const useUnits = () => useQuery(unitsQuery);
