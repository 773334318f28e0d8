import { getAnalyte, listAnalytesWithCounts } from '@bvdb/contract';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../../lib/app-error.js';
import { cachedJson } from '../../lib/cached-json.js';
import { route } from '../../plugins/contract-routes.js';
import * as repo from './analytes.repository.js';
import { presentAnalyte } from './analytes.presenter.js';

export function registerAnalyteRoutes(app: FastifyInstance): void {
  const db = () => app.deps.database.db;

  route(app, getAnalyte, async ({ params }) => {
    const a = await repo.findAnalyte(db(), params.id);
    if (!a) throw notFound(`Measurand ${params.id}`);
    return { analyte: presentAnalyte(a) };
  });

  route(app, listAnalytesWithCounts, async ({ request, reply }) =>
    cachedJson(request, reply, async () => ({
      analytes: (await repo.listAnalytesWithCounts(db(), request.user != null)).map((r) => ({
        ...presentAnalyte(r.analyte),
        bv_specifications_count: r.count,
      })),
    })),
  );
}
