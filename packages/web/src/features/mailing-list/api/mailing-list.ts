import { addMailingListMember, listMailingListMembers, type MailingListMemberBody } from '@bvdb/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { useSession } from '../../../lib/session';
import { queryKeys } from '../../../lib/query-keys';

export const mailingListMembersQuery = queryOptions({
  queryKey: queryKeys.mailingList,
  queryFn: () => apiCall(listMailingListMembers),
});

export function useAddMailingListMember() {
  const { csrf_token: csrfToken } = useSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: MailingListMemberBody) => apiCall(addMailingListMember, { body, csrfToken }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.mailingList }),
  });
}

export const useMailingListMembers = () => useQuery(mailingListMembersQuery);
