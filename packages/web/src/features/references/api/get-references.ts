import { getReference, listReferences } from '@bvdb/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export const referencesPageQuery = (page: number, search: string) =>
  queryOptions({
    queryKey: queryKeys.referencesPage(page, search),
    queryFn: () => apiCall(listReferences, { query: { page, search } }),
    placeholderData: keepPreviousData,
  });

export const referenceQuery = (id: number) =>
  queryOptions({
    queryKey: queryKeys.reference(id),
    queryFn: () => apiCall(getReference, { params: { id } }),
  });

export const useReferencesPage = (page: number, search: string) =>
  useQuery(referencesPageQuery(page, search));
export const useReference = (id: number) => useQuery(referenceQuery(id));
