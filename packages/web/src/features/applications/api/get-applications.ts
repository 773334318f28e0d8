import { v1Applications } from '@bvdb/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import type { ApplicationsParams } from '../applications-params';
import { queryKeys } from '../../../lib/query-keys';

/**
 * The summary table "BV and performance specifications" (issue 32.1) at the chosen level,
 * probability and CVA. Defaults are left out of the URL, so the first load reads exactly
 * `/api/v1/applications`, the answer the server announced and rendered the page with.
 */
export const applicationsQuery = (p: ApplicationsParams) =>
  queryOptions({
    queryKey: queryKeys.applications(p.level, p.probability, p.cva, p.matrices, p.population),
    queryFn: () => apiCall(v1Applications, { query: applicationsQueryString(p) }),
    // A new level or probability keeps the table on screen until the new one arrives.
    placeholderData: keepPreviousData,
  });

/** The API's query for these parameters: only what differs from its defaults. */
export function applicationsQueryString(p: ApplicationsParams): Record<string, string | number | undefined> {
  return {
    level: p.level === 'desirable' ? undefined : p.level,
    probability: p.probability === 0.95 ? undefined : p.probability,
    cva: p.cva ?? undefined,
    matrices: p.matrices === 'displayed' ? undefined : p.matrices,
    ...Object.fromEntries(Object.entries(p.population).map(([facet, values]) => [`facet.${facet}`, values])),
  };
}

export const useApplications = (p: ApplicationsParams) => useQuery(applicationsQuery(p));
