import { addMailingListMember, listMailingListMembers } from '@bvdb/contract';
import type { FastifyInstance } from 'fastify';
import { route } from '../../plugins/contract-routes.js';
import { mailgunSettings } from './mailgun-client.js';
import { MailingListService } from './mailing-list.service.js';

export function registerMailingListRoutes(app: FastifyInstance): void {
  const service = new MailingListService(app, mailgunSettings(app.deps.config));
  route(app, addMailingListMember, async ({ body }) => ({
    code: 'success' as const,
    ...(await service.add(body)),
  }));
  route(app, listMailingListMembers, async () => ({ data: await service.list() }));
}
