import { getMyAppraisal, listMyAppraisals, submitAppraisal, type SubmitAppraisalBody } from '@bvdb/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { useSession } from '../../../lib/session';
import { queryKeys, queryRoots } from '../../../lib/query-keys';

export const myAppraisalsQuery = queryOptions({
  queryKey: queryKeys.myAppraisals,
  queryFn: () => apiCall(listMyAppraisals),
});

export const myAppraisalQuery = (id: number) =>
  queryOptions({
    queryKey: queryKeys.myAppraisal(id),
    queryFn: () => apiCall(getMyAppraisal, { params: { id } }),
  });

export function useSubmitAppraisal(id: number) {
  const { csrf_token: csrfToken } = useSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SubmitAppraisalBody) => apiCall(submitAppraisal, { params: { id }, body, csrfToken }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryRoots.appraisals }),
  });
}

export const useMyAppraisals = () => useQuery(myAppraisalsQuery);
export const useMyAppraisal = (id: number) => useQuery(myAppraisalQuery(id));
