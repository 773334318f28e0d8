import { getAnalyte, listAnalytesWithCounts } from '@bvdb/contract';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../../lib/app-error.js';
import { cachedJson } from '../../lib/cached-json.js';
import { serviceDeps } from '../../lib/service-deps.js';
import { route, seesUnpublished } from '../../plugins/contract-routes.js';
import * as analytes from './analytes.service.js';

export function registerAnalyteRoutes(app: FastifyInstance): void {
  const { db } = serviceDeps(app);

  // One measurand is the same for everyone and changes only with the measurands: kept like one
  // dataset, so a page's worth of callers costs one query (decision 035).
  route(app, getAnalyte, async ({ params, request, reply }) =>
    cachedJson(
      request,
      reply,
      async () => {
        const analyte = await analytes.getAnalyte(db, params.id);
        if (!analyte) throw notFound(`Measurand ${params.id}`);
        return { analyte };
      },
      { varyByUser: false, scopes: ['analytes'], pool: 'records' },
    ),
  );

  route(app, listAnalytesWithCounts, async ({ request, reply }) =>
    cachedJson(request, reply, async () => ({
      analytes: await analytes.listAnalytesWithCounts(db, seesUnpublished(request)),
    })),
  );
}
