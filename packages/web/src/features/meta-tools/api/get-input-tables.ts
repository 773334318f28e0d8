import { metaInputTables } from '@bvdb/contract';
import { queryOptions } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';

export const inputTablesQuery = (analyteId: number) =>
  queryOptions({
    queryKey: ['meta-input-tables', analyteId],
    queryFn: ({ signal }) => apiCall(metaInputTables, { params: { analyte_id: analyteId }, signal }),
  });
