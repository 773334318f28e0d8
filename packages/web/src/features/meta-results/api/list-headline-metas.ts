import { listMetaCalculations } from '@bvdb/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/**
 * The displayed estimates as `/api/meta_calculations` answers them: one entry per measurand with the
 * CVI and CVG of its headline matrix (decision 007). The list page puts these in its main table.
 */
export const headlineMetasQuery = queryOptions({
  queryKey: queryKeys.headlineMetas,
  queryFn: () => apiCall(listMetaCalculations),
});

export const useHeadlineMetas = () => useQuery(headlineMetasQuery);
