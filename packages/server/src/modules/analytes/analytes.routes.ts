import { getAnalyte, listAnalytesWithCounts } from '@bvdb/contract';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../../lib/app-error.js';
import { cachedJson } from '../../lib/cached-json.js';
import { serviceDeps } from '../../lib/service-deps.js';
import { route, seesUnpublished } from '../../plugins/contract-routes.js';
import * as analytes from './analytes.service.js';

export function registerAnalyteRoutes(app: FastifyInstance): void {
  const { db } = serviceDeps(app);

  route(app, getAnalyte, async ({ params }) => {
    const analyte = await analytes.getAnalyte(db, params.id);
    if (!analyte) throw notFound(`Measurand ${params.id}`);
    return { analyte };
  });

  route(app, listAnalytesWithCounts, async ({ request, reply }) =>
    cachedJson(request, reply, async () => ({
      analytes: await analytes.listAnalytesWithCounts(db, seesUnpublished(request)),
    })),
  );
}
