import { and, asc, count, eq, exists, gte, inArray, isNotNull, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../../db/client.js';
import { idIn } from '../../../db/id-in.js';
import {
  NARROW_PAGE_ROWS,
  PAGE_ROWS,
  readByIdsInPages,
  pastId,
  readInPages,
} from '../../../db/read-in-pages.js';
import {
  analytes,
  bvSpecifications,
  matrices,
  matrixConsolidations,
  metaCalculationDatasets,
  metaCalculations,
  references,
} from '../../../db/schema.js';

export async function countDisplayedMetas(db: DbOrTx) {
  const [row] = await db
    .select({ n: count() })
    .from(metaCalculations)
    .where(and(eq(metaCalculations.display, true), isNotNull(metaCalculations.median)));
  return row?.n ?? 0;
}

export async function countReferencesAll(db: DbOrTx) {
  const [row] = await db.select({ n: count() }).from(references);
  return row?.n ?? 0;
}

export async function countPublishedDatasets(db: DbOrTx, signedIn: boolean) {
  const [row] = await db
    .select({ n: count() })
    .from(bvSpecifications)
    .where(signedIn ? undefined : eq(bvSpecifications.published, true));
  return row?.n ?? 0;
}

function selectMetas(db: DbOrTx) {
  return db
    .select({
      meta: metaCalculations,
      analyteName: analytes.displayName,
      matrixName: matrices.matrixExpansion,
      consolidationName: matrixConsolidations.name,
    })
    .from(metaCalculations)
    .innerJoin(analytes, eq(analytes.id, metaCalculations.analyteId))
    .leftJoin(matrices, eq(matrices.id, metaCalculations.matrixId))
    .leftJoin(matrixConsolidations, eq(matrixConsolidations.id, metaCalculations.matrixConsolidationId));
}

export type MetaRow = Awaited<ReturnType<ReturnType<typeof selectMetas>['execute']>>[number];

/** A result the public reads show: marked for display and with an estimate. */
const displayed = () => and(eq(metaCalculations.display, true), isNotNull(metaCalculations.median));

export interface MetaPage {
  limit?: number;
  offset?: number;
  updatedSince?: Date;
  /** Only these measurands' results (a kept catalogue reading what a write changed, decision 066). */
  analyteIds?: number[];
}

const changedSince = (since: Date | undefined) =>
  since ? gte(metaCalculations.updatedAt, since) : undefined;

/** The public order of results: by measurand name, then matrix, consolidation, type and id. */
const BY_NAME = [
  asc(analytes.displayName),
  asc(metaCalculations.matrixId),
  asc(metaCalculations.matrixConsolidationId),
  asc(metaCalculations.varType),
  asc(metaCalculations.id),
];

/** `pageRows`: rows a query when every result is read (tests read in small pages). */
export async function listDisplayedMetas(db: DbOrTx, opts: MetaPage = {}, pageRows = PAGE_ROWS) {
  const which = and(
    displayed(),
    changedSince(opts.updatedSince),
    opts.analyteIds ? inArray(metaCalculations.analyteId, opts.analyteIds) : undefined,
  );
  if (opts.limit === undefined && opts.offset === undefined && opts.analyteIds === undefined) {
    // Every result (20,000 at 100× the demo): their ids in order, then the wide rows a page at a
    // time (db/read-in-pages.ts; issue 44.1).
    const ordered = await db
      .select({ id: metaCalculations.id })
      .from(metaCalculations)
      .innerJoin(analytes, eq(analytes.id, metaCalculations.analyteId))
      .where(which)
      .orderBy(...BY_NAME);
    return readByIdsInPages(
      ordered.map((r) => r.id),
      (ids) => selectMetas(db).where(idIn(metaCalculations.id, ids)),
      (r) => r.meta.id,
      pageRows,
    );
  }
  let q = selectMetas(db)
    .where(which)
    .orderBy(...BY_NAME)
    .$dynamic();
  if (opts.limit !== undefined) q = q.limit(opts.limit);
  if (opts.offset !== undefined) q = q.offset(opts.offset);
  return q;
}

/** Each displayed result's id, measurand and last change: what a kept catalogue compares (decision 066). */
export async function listDisplayedMetaStamps(db: DbOrTx) {
  return readInPages(
    (after: number | undefined, limit) =>
      db
        .select({
          id: metaCalculations.id,
          analyteId: metaCalculations.analyteId,
          updatedAt: metaCalculations.updatedAt,
        })
        .from(metaCalculations)
        .where(and(displayed(), pastId(metaCalculations.id, after)))
        .orderBy(asc(metaCalculations.id))
        .limit(limit),
    (r) => r.id,
    NARROW_PAGE_ROWS,
  );
}

export async function countDisplayedMetasSince(db: DbOrTx, updatedSince?: Date) {
  const [row] = await db
    .select({ n: count() })
    .from(metaCalculations)
    .where(and(displayed(), changedSince(updatedSince)));
  return row?.n ?? 0;
}

/**
 * Measurands with at least one displayed result, and how many there are; with `updatedSince`, only
 * those whose record or any displayed result changed since then. Ordered by id, so pages are stable.
 */
export async function listAnalytesWithResults(db: DbOrTx, opts: MetaPage = {}) {
  const withResult = exists(
    db
      .select({ one: metaCalculations.id })
      .from(metaCalculations)
      .where(and(eq(metaCalculations.analyteId, analytes.id), displayed())),
  );
  const changed = opts.updatedSince
    ? or(
        gte(analytes.updatedAt, opts.updatedSince),
        exists(
          db
            .select({ one: metaCalculations.id })
            .from(metaCalculations)
            .where(
              and(eq(metaCalculations.analyteId, analytes.id), displayed(), changedSince(opts.updatedSince)),
            ),
        ),
      )
    : undefined;
  // Measurands asked for by id (a code names one) are answered with or without results.
  const which = opts.analyteIds ? inArray(analytes.id, opts.analyteIds) : withResult;
  const rows =
    opts.limit === undefined && opts.offset === undefined
      ? // Every such measurand (7,000 at 100× the demo): in pages (issue 44.1).
        await readInPages(
          (after: number | undefined, limit) =>
            db
              .select()
              .from(analytes)
              .where(and(which, changed, pastId(analytes.id, after)))
              .orderBy(asc(analytes.id))
              .limit(limit),
          (a) => a.id,
        )
      : await pagedAnalytes(db, and(which, changed), opts);
  const [total] = await db.select({ n: count() }).from(analytes).where(and(which, changed));
  return { rows, total: total?.n ?? 0 };
}

function pagedAnalytes(db: DbOrTx, where: SQL | undefined, opts: MetaPage) {
  let q = db.select().from(analytes).where(where).orderBy(asc(analytes.id)).$dynamic();
  if (opts.limit !== undefined) q = q.limit(opts.limit);
  if (opts.offset !== undefined) q = q.offset(opts.offset);
  return q;
}

/** The displayed results of some measurands (all measurands when `analyteIds` is absent). */
export async function listDisplayedMetasOfAnalytes(db: DbOrTx, analyteIds?: number[], pageRows = PAGE_ROWS) {
  if (analyteIds && analyteIds.length === 0) return [];
  if (analyteIds)
    return selectMetas(db)
      .where(and(displayed(), inArray(metaCalculations.analyteId, analyteIds)))
      .orderBy(asc(metaCalculations.analyteId), asc(metaCalculations.id));
  // Every measurand's (20,000 results at 100× the demo): in keyset pages of (measurand, id).
  return readInPages(
    (after: [number, number] | undefined, limit) =>
      selectMetas(db)
        .where(
          and(
            displayed(),
            after === undefined
              ? undefined
              : sql`(${metaCalculations.analyteId}, ${metaCalculations.id}) > (${after[0]}, ${after[1]})`,
          ),
        )
        .orderBy(asc(metaCalculations.analyteId), asc(metaCalculations.id))
        .limit(limit),
    (r): [number, number] => [r.meta.analyteId, r.meta.id],
    pageRows,
  );
}

export async function listMetasOfAnalyte(db: DbOrTx, analyteId: number) {
  return selectMetas(db)
    .where(and(eq(metaCalculations.analyteId, analyteId), eq(metaCalculations.display, true)))
    .orderBy(
      asc(metaCalculations.matrixId),
      asc(metaCalculations.matrixConsolidationId),
      asc(metaCalculations.varType),
    );
}

export async function listMetasOf(db: DbOrTx, analyteId: number, matrixId: number, varType: string) {
  return db
    .select({ id: metaCalculations.id, name: metaCalculations.name })
    .from(metaCalculations)
    .where(
      and(
        eq(metaCalculations.analyteId, analyteId),
        eq(metaCalculations.matrixId, matrixId),
        eq(metaCalculations.varType, varType),
      ),
    )
    .orderBy(asc(metaCalculations.id));
}

export async function listDatasetsOfMetas(db: DbOrTx, metaIds: number[]) {
  if (metaIds.length === 0) return [];
  return db
    .select({
      metaId: metaCalculationDatasets.metaCalculationId,
      bvSpecificationId: metaCalculationDatasets.bvSpecificationId,
      studyId: metaCalculationDatasets.studyId,
      grade: metaCalculationDatasets.grade,
      cv: metaCalculationDatasets.cv,
      ciLower: metaCalculationDatasets.ciLower,
      ciUpper: metaCalculationDatasets.ciUpper,
      weight: metaCalculationDatasets.weight,
      referenceId: references.id,
      referenceTitle: references.title,
    })
    .from(metaCalculationDatasets)
    .innerJoin(bvSpecifications, eq(bvSpecifications.id, metaCalculationDatasets.bvSpecificationId))
    .innerJoin(references, eq(references.id, bvSpecifications.referenceId))
    .where(inArray(metaCalculationDatasets.metaCalculationId, metaIds))
    .orderBy(asc(metaCalculationDatasets.bvSpecificationId));
}

/** Reference titles by id (the datasets of a past estimate version name their reference by id). */
export async function listReferenceTitles(db: DbOrTx, ids: number[]) {
  if (ids.length === 0) return [];
  return db
    .select({ id: references.id, title: references.title })
    .from(references)
    .where(inArray(references.id, ids));
}
