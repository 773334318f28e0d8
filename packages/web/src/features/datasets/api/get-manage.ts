import { listReferences, manageByAnalyte, manageByReference } from '@bvdb/contract';
import { queryOptions } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';

export const manageByAnalyteQuery = (id: number) =>
  queryOptions({
    queryKey: ['manage', 'analyte', id],
    queryFn: ({ signal }) => apiCall(manageByAnalyte, { query: { id }, signal }),
  });

export const manageByReferenceQuery = (id: number) =>
  queryOptions({
    queryKey: ['manage', 'reference', id],
    queryFn: ({ signal }) => apiCall(manageByReference, { query: { id }, signal }),
  });

/** Every reference, for the selector (the list without `page` answers `{references}`). */
export const allReferencesQuery = queryOptions({
  queryKey: ['references', 'all'],
  queryFn: async () => {
    const res = await apiCall(listReferences);
    return 'references' in res ? res.references : res.data;
  },
});
