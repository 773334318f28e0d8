import { getLookups, listAnalytesWithCounts, listReferences } from '@bvdb/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** Matrices, states of well-being, diseases, ethnicities, units and methods, in one call. */
export const lookupsQuery = queryOptions({
  queryKey: queryKeys.lookups,
  queryFn: ({ signal }) => apiCall(getLookups, { signal }),
  staleTime: 5 * 60_000,
});

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

export const useLookups = () => useQuery(lookupsQuery);
export const useAnalyteOptions = () => useQuery(analyteOptionsQuery);
export const useReferenceOptions = () => useQuery(referenceOptionsQuery);
