import {
  assignAssessor,
  getAgreement,
  getAppraisalBoard,
  openAppraisal,
  type AssignAssessorBody,
} from '@bvdb/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { useSession } from '../../../lib/session';
import { datasetChangeKeys, invalidateKeys, queryKeys, queryRoots } from '../../../lib/query-keys';

export const appraisalBoardQuery = queryOptions({
  queryKey: queryKeys.appraisalBoard,
  queryFn: () => apiCall(getAppraisalBoard),
});

export const agreementQuery = (from: string, to: string) =>
  queryOptions({
    queryKey: queryKeys.agreement(from, to),
    queryFn: () => apiCall(getAgreement, { query: { from: from || undefined, to: to || undefined } }),
  });

export function useAssignAssessor() {
  const { csrf_token: csrfToken } = useSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (v: AssignAssessorBody & { roundId: number }) =>
      apiCall(assignAssessor, {
        params: { id: v.roundId },
        body: { version: v.version, slot: v.slot, assessor_id: v.assessor_id },
        csrfToken,
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryRoots.appraisals }),
  });
}

export function useOpenAppraisal() {
  const { csrf_token: csrfToken } = useSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (datasetId: number) => apiCall(openAppraisal, { params: { id: datasetId }, csrfToken }),
    // The dataset is marked in appraisal: a dataset change (the board included).
    onSettled: () => invalidateKeys(queryClient, datasetChangeKeys),
  });
}

export const useAppraisalBoard = () => useQuery(appraisalBoardQuery);
export const useAgreement = (from: string, to: string) => useQuery(agreementQuery(from, to));
