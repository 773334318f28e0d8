import { listAnalytesWithCounts, listReferences } from '@bvdb/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

// Matrices, states of well-being, diseases, ethnicities, units and methods (shared with the population chooser).
export { lookupsQuery, useLookups } from '../../../lib/lookups';

/** Every measurand (display name and id) for the measurand selector. */
export const analyteOptionsQuery = queryOptions({
  queryKey: queryKeys.analytesWithCounts,
  queryFn: ({ signal }) => apiCall(listAnalytesWithCounts, { signal }),
});

/** A reference for the picker: its label, and the text it is found by (every author, year, title, journal). */
export interface ReferenceOption {
  id: number;
  label: string;
  search?: string;
}

/** GET /api/references: `{references}` without a page (an array or `{data}` would do too). */
export const referenceOptionsQuery = queryOptions({
  queryKey: queryKeys.referenceOptions,
  queryFn: async ({ signal }): Promise<ReferenceOption[]> => {
    const res = await apiCall(listReferences, { signal });
    const list = 'references' in res ? res.references : res.data;
    return list.map((r) => ({
      id: r.id,
      label: r.label,
      search: [r.author, r.year_of_publication, r.title, r.journal].filter((v) => v !== null).join(' '),
    }));
  },
  retry: false,
});

export const useAnalyteOptions = () => useQuery(analyteOptionsQuery);
export const useReferenceOptions = () => useQuery(referenceOptionsQuery);
