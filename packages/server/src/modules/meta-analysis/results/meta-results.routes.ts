import { getCounters, listMetaCalculations, metaByAnalyte, metaByAnalyteMatrixType } from '@bvdb/contract';
import type { FastifyInstance } from 'fastify';
import { count } from 'drizzle-orm';
import { notFound } from '../../lib/app-error.js';
import { cachedJson } from '../../lib/cached-json.js';
import { route } from '../../plugins/contract-routes.js';
import { metaCalculations } from '../../db/schema.js';
import { findAnalyte } from '../analytes/analytes.service.js';
import { findMatrix } from '../lookups/lookups.service.js';
import * as repo from './metas.repository.js';
import { matrixLabel, presentMeta } from './metas.presenter.js';

export function registerMetaRoutes(app: FastifyInstance): void {
  const db = () => app.deps.database.db;

  route(app, getCounters, async ({ request, reply }) =>
    cachedJson(request, reply, async () => {
      const [datasets, metas, refs] = await Promise.all([
        repo.countPublishedDatasets(db(), request.user != null),
        repo.countDisplayedMetas(db()),
        repo.countReferencesAll(db()),
      ]);
      return { meta_data: { total_bv_specifications: datasets, total_metas: metas, total_references: refs } };
    }),
  );

  route(app, listMetaCalculations, async ({ query, request, reply }) =>
    cachedJson(
      request,
      reply,
      async () => {
        const [rows, [total]] = await Promise.all([
          repo.listDisplayedMetas(db(), {
            ...(query.limit !== undefined ? { limit: query.limit } : {}),
            ...(query.offset !== undefined ? { offset: query.offset } : {}),
          }),
          db().select({ n: count() }).from(metaCalculations),
        ]);
        return {
          code: 'success' as const,
          total: total?.n ?? 0,
          data: rows.map((r) => ({
            id: r.meta.id,
            name: r.meta.name,
            analyte_id: r.meta.analyteId,
            analyte_display_name: r.analyteName,
            var_type: r.meta.varType as ':cvi' | ':cvg',
            matrix: matrixLabel(r),
            median: r.meta.median,
            lower: r.meta.lower,
            upper: r.meta.upper,
            number_used: r.meta.numberUsed,
            updated_at: r.meta.updatedAt.toISOString(),
          })),
        };
      },
      { varyByUser: false },
    ),
  );

  route(app, metaByAnalyte, async ({ params, request, reply }) => {
    const analyte = await findAnalyte(db(), params.id);
    if (!analyte) throw notFound(`Measurand ${params.id}`);
    return cachedJson(
      request,
      reply,
      async () => {
        const rows = await repo.listMetasOfAnalyte(db(), params.id);
        const links = await repo.listDatasetsOfMetas(
          db(),
          rows.map((r) => r.meta.id),
        );
        return {
          data: [
            {
              analyte: { id: analyte.id, display_name: analyte.displayName },
              metas: rows.map((r) =>
                presentMeta(
                  r,
                  links.filter((l) => l.metaId === r.meta.id),
                ),
              ),
            },
          ],
        };
      },
      { varyByUser: false },
    );
  });

  route(app, metaByAnalyteMatrixType, async ({ params }) => {
    if (!(await findAnalyte(db(), params.analyte))) throw notFound(`Measurand ${params.analyte}`);
    if (!(await findMatrix(db(), params.matrix))) throw notFound(`Matrix ${params.matrix}`);
    return { metacalculations: await repo.listMetasOf(db(), params.analyte, params.matrix, params.type) };
  });
}
