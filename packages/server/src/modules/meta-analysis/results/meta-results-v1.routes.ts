import { facetSelectionOf, v1ListMeasurands, v1ListMetas, v1MetasOfMeasurand } from '@bvdb/contract';
import { CODE_SYSTEMS, DEFAULT_EVIDENCE_CLASS, estimateEvidenceOf, limitsKindOf } from '@bvdb/domain';
import type { FastifyInstance } from 'fastify';
import { cachedJson } from '../../../lib/cached-json.js';
import { serviceDeps } from '../../../lib/service-deps.js';
import { route } from '../../../plugins/contract-routes.js';
import { AppError } from '../../../lib/app-error.js';
import { codesByMeasurand, resolveCode } from '../../analytes/index.js';
import type { ShownEstimate } from '../facets/meta-facets.service.js';
import { facetAnswerOf } from '../facets/population.service.js';
import {
  presentMeta,
  presentMetaListItem,
  presentV1Headline,
  type EstimateRefOf,
} from './meta-results.presenter.js';
import * as service from './meta-results.service.js';

/**
 * What kind of evidence a global estimate is (decision 099): only direct ANOVA studies enter it, so
 * it is that class, or a range when too few studies give one.
 */
const globalEvidenceOf = (row: Parameters<typeof presentMeta>[0]) =>
  estimateEvidenceOf(limitsKindOf(row.meta.method), [DEFAULT_EVIDENCE_CLASS]);

/** The meta-analysis part of the versioned API (`/api/v1`); shapes in packages/contract/src/v1.contract.ts. */
export function registerMetaV1Routes(app: FastifyInstance): void {
  const pageMeta = (q: { limit: number; offset: number }, total: number) => ({
    total,
    limit: q.limit,
    offset: q.offset,
    next_offset: q.offset + q.limit < total ? q.offset + q.limit : null,
  });
  const since = (s: string | undefined) => (s ? { updatedSince: new Date(s) } : {});
  const refsOf =
    (refs: service.EstimateRefs): EstimateRefOf =>
    (row) => {
      const ref = refs.get(service.refKeyOf(row.meta));
      return { estimate_id: ref?.estimateId ?? null, version: ref?.version ?? null };
    };

  // A measurand's codes as the v1 answers carry them (issue 45.3).
  const codesOf = async (ids: number[]) => {
    const byId = await codesByMeasurand(serviceDeps(app).db, ids);
    return new Map(
      [...byId].map(([id, list]) => [
        id,
        list.map((c) => ({
          system: c.system,
          code: c.code,
          display: c.display,
          matrix: c.matrix,
          ucum_unit: c.ucum_unit,
        })),
      ]),
    );
  };
  // `code=system|code`, `loinc=` or `npu=`: the measurand the code names, or 404 (issue 45.3).
  const codeAsked = (q: {
    code?: string | undefined;
    loinc?: string | undefined;
    npu?: string | undefined;
  }) => {
    const db = serviceDeps(app).db;
    if (q.code !== undefined) return resolveCode(db, q.code);
    if (q.loinc !== undefined) return resolveCode(db, q.loinc, CODE_SYSTEMS.loinc);
    if (q.npu !== undefined) return resolveCode(db, q.npu, CODE_SYSTEMS.npu);
    return Promise.resolve(undefined);
  };
  const presentMatch = (m: Awaited<ReturnType<typeof resolveCode>>) => ({
    system: m.system,
    code: m.code,
    display: m.display,
    measurand_id: m.measurand_id,
    matrix_id: m.matrix_id,
    matrix: m.matrix,
    ucum_unit: m.ucum_unit,
  });

  route(app, v1ListMeasurands, async ({ query, request, reply }) =>
    cachedJson(
      request,
      reply,
      async () => {
        if (query.as_of !== undefined) {
          // What the list showed then, from the estimates' history (decision 052).
          const past = await service.listHeadlinesAsOf(
            serviceDeps(app),
            { limit: query.limit, offset: query.offset, ...since(query.updated_since) },
            asOfInstant(query.as_of),
          );
          const codes = await codesOf(past.items.map((i) => i.analyte.id));
          return {
            meta: pageMeta(query, past.total),
            data: past.items.map(({ analyte, headline, results, updatedAt }) => {
              const refOf: EstimateRefOf = (row) => {
                const r = results.find((x) => x.row === row)?.ref;
                return { estimate_id: r?.estimateId ?? null, version: r?.version ?? null };
              };
              return {
                id: analyte.id,
                display_name: analyte.displayName,
                full_name: analyte.fullName,
                alternate_names: analyte.alternateNames,
                headline: presentV1Headline(headline, refOf),
                updated_at: updatedAt.toISOString(),
                codes: codes.get(analyte.id) ?? [],
              };
            }),
          };
        }
        const found = await codeAsked(query);
        const { items, total } = found
          ? await service.listHeadlines(serviceDeps(app), { analyteIds: [found.measurand_id] })
          : await service.listHeadlines(serviceDeps(app), {
              limit: query.limit,
              offset: query.offset,
              ...since(query.updated_since),
            });
        const codes = await codesOf(items.map((i) => i.analyte.id));
        const refOf = refsOf(
          await service.estimateRefsOf(
            serviceDeps(app),
            items.map((i) => i.analyte.id),
          ),
        );
        return {
          meta: found
            ? { ...pageMeta({ limit: query.limit, offset: 0 }, total), code: presentMatch(found) }
            : pageMeta(query, total),
          data: items.map(({ analyte, headline }) => {
            const stamps = [analyte.updatedAt, headline?.cvi?.meta.updatedAt, headline?.cvg?.meta.updatedAt];
            const latest = Math.max(...stamps.map((d) => d?.getTime() ?? 0));
            return {
              id: analyte.id,
              display_name: analyte.displayName,
              full_name: analyte.fullName,
              alternate_names: analyte.alternateNames,
              headline: presentV1Headline(headline, refOf),
              updated_at: new Date(latest).toISOString(),
              codes: codes.get(analyte.id) ?? [],
            };
          }),
        };
      },
      { varyByUser: false },
    ),
  );

  route(app, v1MetasOfMeasurand, async ({ params, query, request, reply }) => {
    const analyte = await service.requireAnalyte(serviceDeps(app), params.id);
    const asOf = query.as_of === undefined ? null : asOfInstant(query.as_of);
    // Population facets (issue 47): recomputed on the matching datasets, never written; the global
    // headline and metas are answered beside them unchanged.
    const selection = facetSelectionOf(query);
    const faceted = Object.keys(selection).length > 0;
    // With as_of, the facet estimates are recomputed from what the estimates shown then were
    // computed from (decision 097).
    const facetsOf = async (shown?: { at: Date; shown: ShownEstimate[] }) =>
      faceted ? { facets: await facetAnswerOf(serviceDeps(app), analyte.id, selection, shown) } : {};
    return cachedJson(
      request,
      reply,
      async () => {
        const id = { id: analyte.id, display_name: analyte.displayName };
        if (asOf) {
          const past = await service.getResultsOfAnalyteAsOf(serviceDeps(app), params.id, asOf);
          const refOf: EstimateRefOf = (row) => {
            const r = past.results.find((x) => x.row === row)?.ref;
            return { estimate_id: r?.estimateId ?? null, version: r?.version ?? null };
          };
          return {
            analyte: id,
            as_of: asOf.toISOString(),
            headline: presentV1Headline(past.headline, refOf),
            metas: past.results.map((r) => ({
              ...presentMeta(r.row, r.links),
              ...refOf(r.row),
              evidence: globalEvidenceOf(r.row),
            })),
            ...(await facetsOf({
              at: asOf,
              shown: past.results.map((r) => ({
                matrixId: r.row.meta.matrixId,
                consolidationId: r.row.meta.matrixConsolidationId,
                matrix: presentMeta(r.row, r.links).matrix,
                varType: r.row.meta.varType as ':cvi' | ':cvg',
                name: r.row.meta.name,
                datasets: r.links.map((l) => ({
                  bvSpecificationId: l.bvSpecificationId,
                  referenceId: l.referenceId,
                  studyId: l.studyId,
                  grade: l.grade,
                  cv: l.cv,
                  ciLower: l.ciLower,
                  ciUpper: l.ciUpper,
                })),
              })),
            })),
          };
        }
        const { results, headline } = await service.getResultsOfAnalyte(serviceDeps(app), params.id);
        const refOf = refsOf(await service.estimateRefsOf(serviceDeps(app), [params.id]));
        return {
          analyte: id,
          as_of: null,
          headline: presentV1Headline(headline, refOf),
          metas: results.map((r) => ({
            ...presentMeta(r.row, r.links),
            ...refOf(r.row),
            evidence: globalEvidenceOf(r.row),
          })),
          ...(await facetsOf()),
        };
      },
      { varyByUser: false },
    );
  });

  route(app, v1ListMetas, async ({ query, request, reply }) =>
    cachedJson(
      request,
      reply,
      async () => {
        const { rows, total } = await service.listMetaPage(serviceDeps(app), {
          limit: query.limit,
          offset: query.offset,
          ...since(query.updated_since),
        });
        return { meta: pageMeta(query, total), data: rows.map(presentMetaListItem) };
      },
      { varyByUser: false },
    ),
  );
}

/** `as_of` as an instant: a date alone means the end of that day (UTC), what the site showed that day. */
function asOfInstant(value: string): Date {
  const instant = /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T23:59:59.999Z`) : new Date(value);
  if (Number.isNaN(instant.getTime())) throw new AppError('bad_request', `as_of ${value} is not a date`);
  return instant;
}
