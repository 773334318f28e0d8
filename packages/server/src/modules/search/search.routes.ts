import { autocomplete, searchByAnalyte, searchById } from '@bvdb/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { notFound } from '../../lib/app-error.js';
import { cachedJson } from '../../lib/cached-json.js';
import { route } from '../../plugins/contract-routes.js';
import { analytes } from '../../db/schema.js';
import { findAnalyteWithCount, listAnalytesWithCounts } from '../analytes/analytes.service.js';
import { presentAnalyte } from '../analytes/analytes.presenter.js';
import { AnalyteIndex } from './analyte-index.js';

/** A browser following a link or submitting the search form wants the page, a script wants JSON. */
function wantsHtml(request: FastifyRequest, format: string | undefined): boolean {
  if (format) return format === 'html';
  const accept = request.headers.accept ?? '';
  return accept.includes('text/html');
}

export function registerSearchRoutes(app: FastifyInstance): void {
  const db = () => app.deps.database.db;
  let index: { generation: number; index: AnalyteIndex } | undefined;

  async function currentIndex(): Promise<AnalyteIndex> {
    const generation = app.deps.cache.currentGeneration;
    if (!index || index.generation !== generation) {
      index = { generation, index: new AnalyteIndex(await db().select().from(analytes)) };
    }
    return index.index;
  }

  // Typed prefixes repeat across visitors: each distinct query is ranked once per data generation
  // (and cachedJson also notices writes made by other server processes).
  route(app, autocomplete, async ({ query, request, reply }) =>
    cachedJson(
      request,
      reply,
      async () => (query.query ? (await currentIndex()).search(query.query, 10) : []),
      { varyByUser: false },
    ),
  );

  route(app, searchByAnalyte, async ({ query, request, reply }) => {
    if (wantsHtml(request, query.format)) {
      return reply.redirect(`/search?query=${encodeURIComponent(query.query)}`, 302);
    }
    const matches = query.query ? (await currentIndex()).search(query.query, 50) : [];
    const ids = new Set(matches.map((m) => m.id));
    const rows = (await listAnalytesWithCounts(db(), request.user != null)).filter((r) =>
      ids.has(r.analyte.id),
    );
    const order = new Map(matches.map((m, i) => [m.id, i]));
    rows.sort((a, b) => order.get(a.analyte.id)! - order.get(b.analyte.id)!);
    return {
      query: query.query,
      analytes: rows.map((r) => ({ ...presentAnalyte(r.analyte), bv_specifications_count: r.count })),
    };
  });

  route(app, searchById, async ({ query, request, reply }) => {
    const found = await findAnalyteWithCount(db(), query.query, request.user != null);
    if (!found) throw notFound(`Measurand ${query.query}`);
    if (wantsHtml(request, query.format)) return reply.redirect(`/analytes/${query.query}`, 302);
    return { analyte: { ...presentAnalyte(found.analyte), bv_specifications_count: found.count } };
  });
}
