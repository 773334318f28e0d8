import { v1MetasOfMeasurand } from '@bvdb/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/**
 * The same results as they were at a moment (the estimates' history, issue 29.4): a pinned
 * release's values (issue 30.3). A key of its own, and never part of the server-rendered page.
 */
export const metaByAnalyteAsOfQuery = (id: number, asOf: string) =>
  queryOptions({
    queryKey: queryKeys.metasOfAnalyteAsOf(id, asOf),
    queryFn: () => apiCall(v1MetasOfMeasurand, { params: { id }, query: { as_of: asOf } }),
    meta: { ssr: false },
  });

/** The results as of a moment, once the moment is known (`undefined`: nothing asked yet). */
export const useMetaByAnalyteAsOf = (id: number, asOf: string | undefined) =>
  useQuery({ ...metaByAnalyteAsOfQuery(id, asOf ?? ''), enabled: asOf !== undefined });
