import { z } from 'zod';
import { ErrorSchema, errorsFor } from './common.js';
import { defineRoute, STAFF } from './route.js';

export const MailingListMemberBodySchema = z
  .object({
    email: z
      .string()
      .trim()
      .min(1, 'Email address is required')
      .max(254, 'Email address must be at most 254 characters')
      .pipe(z.email('Email address must be a valid e-mail address')),
    name: z.string().trim().max(200, 'Name must be at most 200 characters').optional(),
  })
  .strict();
export type MailingListMemberBody = z.infer<typeof MailingListMemberBodySchema>;

export const MailingListMemberSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  name: z.string().nullable(),
  synced_at: z.string().nullable().describe('When the mailing-list provider last accepted the member'),
  created_at: z.string(),
  updated_at: z.string(),
});
export type MailingListMember = z.infer<typeof MailingListMemberSchema>;

export const addMailingListMember = defineRoute({
  method: 'POST',
  path: '/api/mailguns/bv_calculations/add_member_to_list',
  summary:
    'Add (or update, by e-mail address) a mailing-list member; also sent to Mailgun when MAILGUN_* is set. 502 when the provider fails (the member stays stored)',
  tags: ['mailing-list'],
  access: STAFF,
  body: MailingListMemberBodySchema,
  responses: {
    200: z.object({
      code: z.literal('success'),
      member: MailingListMemberSchema,
      synced: z.boolean().describe('false when no provider is configured'),
    }),
    ...errorsFor(400, 401, 403, 502),
  },
});

export const listMailingListMembers = defineRoute({
  method: 'GET',
  path: '/api/mailguns/bv_calculations/members',
  summary: 'Mailing-list members stored here, newest first',
  tags: ['mailing-list'],
  access: STAFF,
  responses: { 200: z.object({ data: z.array(MailingListMemberSchema) }), 401: ErrorSchema },
});

export const subscribeToMailingList = defineRoute({
  method: 'POST',
  path: '/api/mailing_list/subscribe',
  summary:
    'A visitor subscribes to the mailing list (public; needs the CSRF token of GET /api/session, bound to a SameSite=Strict cookie). An address already on the list is left as stored (its name is not overwritten)',
  tags: ['mailing-list'],
  access: 'public',
  body: MailingListMemberBodySchema,
  responses: {
    200: z.object({ code: z.literal('success'), message: z.string() }),
    ...errorsFor(400, 403, 429, 502),
  },
});
