import { addMailingListMember, listMailingListMembers, subscribeToMailingList } from '@bvdb/contract';
import type { FastifyInstance } from 'fastify';
import { serviceDeps } from '../../lib/service-deps.js';
import { route } from '../../plugins/contract-routes.js';
import { assertCsrf } from '../../plugins/csrf.js';
import { mailgunSettings } from './mailgun-client.js';
import { MailingListService } from './mailing-list.service.js';

export function registerMailingListRoutes(app: FastifyInstance): void {
  const service = new MailingListService(serviceDeps(app), mailgunSettings(app.deps.config));
  route(app, addMailingListMember, async ({ body }) => ({
    code: 'success' as const,
    ...(await service.add(body)),
  }));
  route(app, listMailingListMembers, async () => ({ data: await service.list() }));
  // Public, so the CSRF check is explicit here (signed-in routes get it from their access level).
  route(app, subscribeToMailingList, async ({ body, request }) => {
    assertCsrf(request);
    await service.subscribe(body);
    // The address as the visitor typed it: the answer tells nothing about a stored member.
    return { code: 'success' as const, message: `Thank you: ${body.email} is subscribed.` };
  });
}
