import { createCitationReferences as createRoute, previewCitationFile } from '@bvdb/contract';
import type { FastifyInstance } from 'fastify';
import { serviceDeps } from '../../lib/service-deps.js';
import { route, unauthenticated } from '../../plugins/contract-routes.js';
import { createCitationReferences, previewCitations } from './citations.service.js';

/** References from RIS, BibTeX and PubMed files: a preview, then one transaction. */
export function registerCitationRoutes(app: FastifyInstance): void {
  const deps = serviceDeps(app);
  route(app, previewCitationFile, async ({ body }) => previewCitations(deps, body.text, body.format));
  route(app, createRoute, async ({ body, request, reply }) => {
    if (!request.user) throw unauthenticated();
    const references = await createCitationReferences(deps, body.references, request.user.id);
    return reply.status(201).send({ references });
  });
}
