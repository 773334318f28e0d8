import { listReferences, manageByAnalyte, manageByReference } from '@bvdb/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export const manageByAnalyteQuery = (id: number) =>
  queryOptions({
    queryKey: queryKeys.manageByAnalyte(id),
    queryFn: ({ signal }) => apiCall(manageByAnalyte, { query: { id }, signal }),
  });

export const manageByReferenceQuery = (id: number) =>
  queryOptions({
    queryKey: queryKeys.manageByReference(id),
    queryFn: ({ signal }) => apiCall(manageByReference, { query: { id }, signal }),
  });

/** Every reference, for the selector (the list without `page` answers `{references}`). */
export const allReferencesQuery = queryOptions({
  queryKey: queryKeys.allReferences,
  queryFn: async () => {
    const res = await apiCall(listReferences);
    return 'references' in res ? res.references : res.data;
  },
});

export const useManageByAnalyte = (id: number) => useQuery(manageByAnalyteQuery(id));
export const useManageByReference = (id: number) => useQuery(manageByReferenceQuery(id));
export const useAllReferences = () => useQuery(allReferencesQuery);
