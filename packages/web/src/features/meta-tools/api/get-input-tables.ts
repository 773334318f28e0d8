import { metaInputTables } from '@bvdb/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export const inputTablesQuery = (analyteId: number) =>
  queryOptions({
    queryKey: queryKeys.metaInputTables(analyteId),
    queryFn: ({ signal }) => apiCall(metaInputTables, { params: { analyte_id: analyteId }, signal }),
  });

export const useInputTables = (analyteId: number) => useQuery(inputTablesQuery(analyteId));
