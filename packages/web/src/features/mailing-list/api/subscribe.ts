import { subscribeToMailingList, type MailingListMemberBody } from '@bvdb/contract';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { useSession } from '../../../lib/session';

/** A visitor's subscription, with the visitor's CSRF token from GET /api/session. */
export function useSubscribe() {
  const { csrf_token: csrfToken } = useSession();
  return useMutation({
    mutationFn: (body: MailingListMemberBody) => apiCall(subscribeToMailingList, { body, csrfToken }),
  });
}
