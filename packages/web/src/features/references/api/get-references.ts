import { getReference, listReferences } from '@bvdb/contract';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';

export const referencesPageQuery = (page: number, search: string) =>
  queryOptions({
    queryKey: ['references', page, search],
    queryFn: () => apiCall(listReferences, { query: { page, search } }),
    placeholderData: keepPreviousData,
  });

export const referenceQuery = (id: number) =>
  queryOptions({ queryKey: ['reference', id], queryFn: () => apiCall(getReference, { params: { id } }) });
