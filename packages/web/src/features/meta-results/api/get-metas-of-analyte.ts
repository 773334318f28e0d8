import { v1MetasOfMeasurand } from '@bvdb/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** One measurand's results, every matrix, with the datasets behind each (v1: `matrix` is the name). */
export const metaByAnalyteQuery = (id: number) =>
  queryOptions({
    queryKey: queryKeys.metasOfAnalyte(id),
    queryFn: () => apiCall(v1MetasOfMeasurand, { params: { id } }),
  });

export const useMetaByAnalyte = (id: number) => useQuery(metaByAnalyteQuery(id));
