import { getMeasurandCodes, updateMeasurandCodes, type UpdateMeasurandCodesBody } from '@bvdb/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { useSession } from '../../../lib/session';

/**
 * Replaces a measurand's codes with the version read (decision 091): a code another measurand has,
 * a LOINC check digit that does not add up, or a change someone saved since is refused with the
 * server's message. Its own file: only the curators' editor (loaded on demand) uses it.
 */
export function useUpdateMeasurandCodes(id: number) {
  const { csrf_token: csrfToken } = useSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (v: UpdateMeasurandCodesBody) =>
      apiCall(updateMeasurandCodes, { params: { id }, body: v, csrfToken }),
    onSuccess: (answer) => queryClient.setQueryData(queryKeys.measurandCodes(id), answer),
    onError: () => queryClient.invalidateQueries({ queryKey: queryKeys.measurandCodes(id) }),
  });
}

/**
 * The codes as the editor reads them: the same key and call as `measurand-codes.ts` (one cache
 * entry with the page's codes line), written here so the editor's chunk, loaded on demand, imports
 * nothing from the measurand page's chunk — a chunk cycle the bundler emits wrongly.
 */
export const useMeasurandCodesToEdit = (id: number) =>
  useQuery({
    queryKey: queryKeys.measurandCodes(id),
    queryFn: () => apiCall(getMeasurandCodes, { params: { id } }),
  });
