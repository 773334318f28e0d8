import { getAuditHistory } from '@bvdb/contract';
import { queryOptions } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';

export const referenceHistoryQuery = (id: number) =>
  queryOptions({
    queryKey: ['audit', 'reference', id],
    queryFn: () => apiCall(getAuditHistory, { params: { entity: 'reference', id } }),
  });
