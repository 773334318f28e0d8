import { autocomplete, searchByAnalyte, searchById } from '@bvdb/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { notFound } from '../../lib/app-error.js';
import { cachedItemsJson, cachedJson } from '../../lib/cached-json.js';
import { serviceDeps } from '../../lib/service-deps.js';
import { route, seesUnpublished } from '../../plugins/contract-routes.js';
import { AnalyteSearch } from './search.service.js';

/** A browser following a link or submitting the search form wants the page, a script wants JSON. */
function wantsHtml(request: FastifyRequest, format: string | undefined): boolean {
  if (format) return format === 'html';
  const accept = request.headers.accept ?? '';
  return accept.includes('text/html');
}

export function registerSearchRoutes(app: FastifyInstance): void {
  const search = new AnalyteSearch(serviceDeps(app));
  // Made whole once the server is ready: a first search makes nothing on the event loop (issue 44.1).
  app.lifecycle.afterReady.push(() => search.warmUp());

  // Typed prefixes repeat across visitors: each distinct query is ranked once per data generation
  // (and cachedJson also notices writes made by other server processes).
  route(app, autocomplete, async ({ query, request, reply }) =>
    cachedJson(request, reply, () => search.suggest(query.query), {
      varyByUser: false,
      scopes: ['analytes'],
    }),
  );

  route(app, searchByAnalyte, async ({ query, request, reply }) => {
    if (wantsHtml(request, query.format)) {
      return reply.redirect(`/search?query=${encodeURIComponent(query.query)}`, 302);
    }
    // Kept per query until a measurand or a dataset changes (the counts read both); staff, who
    // count unpublished datasets too, get a fresh answer. Each measurand's JSON is made once
    // (decision 071): the answer is their concatenation.
    return cachedItemsJson(
      request,
      reply,
      async () => ({
        envelope: { query: query.query, analytes: [] },
        items: await search.findByNameJson(query.query, seesUnpublished(request)),
      }),
      { scopes: ['analytes', 'datasets'] },
    );
  });

  route(app, searchById, async ({ query, request, reply }) => {
    const analyte = await search.findById(query.query, seesUnpublished(request));
    if (!analyte) throw notFound(`Measurand ${query.query}`);
    if (wantsHtml(request, query.format)) return reply.redirect(`/analytes/${query.query}`, 302);
    return { analyte };
  });
}
