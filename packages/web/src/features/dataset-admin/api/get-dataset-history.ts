import { getAuditHistory } from '@bvdb/contract';
import { queryOptions } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';

export const datasetHistoryQuery = (id: number) =>
  queryOptions({
    queryKey: ['audit', 'bv_specification', id],
    queryFn: ({ signal }) => apiCall(getAuditHistory, { params: { entity: 'bv_specification', id }, signal }),
  });
