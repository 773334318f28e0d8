import { getMeasurandNames, updateMeasurandNames } from '@bvdb/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { useSession } from '../../../lib/session';

/** A measurand's alternative names (decision 083): what the test menu matches lines by. */
export const measurandNamesQuery = (id: number) =>
  queryOptions({
    queryKey: queryKeys.measurandNames(id),
    queryFn: () => apiCall(getMeasurandNames, { params: { id } }),
  });

/** Replaces the names with the version read, so a change someone made since is refused (409). */
export function useUpdateMeasurandNames(id: number) {
  const { csrf_token: csrfToken } = useSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (v: { names: string[]; version: number }) =>
      apiCall(updateMeasurandNames, { params: { id }, body: v, csrfToken }),
    onSuccess: (answer) => queryClient.setQueryData(queryKeys.measurandNames(id), answer),
    onError: () => queryClient.invalidateQueries({ queryKey: queryKeys.measurandNames(id) }),
  });
}

export const useMeasurandNames = (id: number) => useQuery(measurandNamesQuery(id));
