import { getAuditHistory, type AuditEntity } from '@bvdb/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export const auditHistoryQuery = (entity: AuditEntity, id: number) =>
  queryOptions({
    queryKey: queryKeys.audit(entity, id),
    queryFn: ({ signal }) => apiCall(getAuditHistory, { params: { entity, id }, signal }),
  });

export const useAuditHistory = (entity: AuditEntity, id: number) => useQuery(auditHistoryQuery(entity, id));
