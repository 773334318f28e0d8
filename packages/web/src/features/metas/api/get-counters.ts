import { getCounters, listMetaCalculations, metaByAnalyte } from '@bvdb/contract';
import { queryOptions } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';

export const countersQuery = queryOptions({ queryKey: ['counters'], queryFn: () => apiCall(getCounters) });

export const metaListQuery = queryOptions({
  queryKey: ['meta-list'],
  queryFn: () => apiCall(listMetaCalculations),
});

export const metaByAnalyteQuery = (id: number) =>
  queryOptions({
    queryKey: ['meta-by-analyte', id],
    queryFn: () => apiCall(metaByAnalyte, { params: { id } }),
  });
