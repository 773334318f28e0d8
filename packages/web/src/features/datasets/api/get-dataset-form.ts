import { getDatasetForm } from '@bvdb/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** The editable values of a dataset and their version (signed-in). */
export const datasetFormQuery = (id: number) =>
  queryOptions({
    queryKey: queryKeys.datasetForm(id),
    queryFn: ({ signal }) => apiCall(getDatasetForm, { params: { id }, signal }),
    // An edit must start from the values as they are now.
    staleTime: 0,
    gcTime: 0,
  });

export const useDatasetFormOf = (id: number) => useQuery(datasetFormQuery(id));
