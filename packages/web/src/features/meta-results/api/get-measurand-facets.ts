import { v1MeasurandFacets } from '@bvdb/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/**
 * A measurand's population facets, each value with how many datasets have it (issue 47): the
 * chooser's counts before any choice. Read after hydration, never part of the server-rendered page.
 */
export const measurandFacetsQuery = (id: number) =>
  queryOptions({
    queryKey: queryKeys.measurandFacets(id),
    queryFn: () => apiCall(v1MeasurandFacets, { params: { id } }),
    meta: { ssr: false },
  });

export const useMeasurandFacets = (id: number) => useQuery(measurandFacetsQuery(id));
