import { MailingListMemberBodySchema, type MailingListMemberBody } from '@bvdb/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';

/** The form of a mailing-list member (email and name), checked by the contract's schema. */
export function useMemberForm() {
  return useForm<MailingListMemberBody>({
    resolver: zodResolver(MailingListMemberBodySchema),
    defaultValues: { email: '', name: '' },
  });
}
