import { and, asc, count, eq, inArray, isNotNull } from 'drizzle-orm';
import type { DbOrTx } from '../../../db/client.js';
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

export async function countAllMetas(db: DbOrTx) {
  const [row] = await db.select({ n: count() }).from(metaCalculations);
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

export async function listDisplayedMetas(db: DbOrTx, opts: { limit?: number; offset?: number } = {}) {
  let q = selectMetas(db)
    .where(and(eq(metaCalculations.display, true), isNotNull(metaCalculations.median)))
    .orderBy(asc(analytes.displayName), asc(metaCalculations.matrixId), asc(metaCalculations.varType))
    .$dynamic();
  if (opts.limit !== undefined) q = q.limit(opts.limit);
  if (opts.offset !== undefined) q = q.offset(opts.offset);
  return q;
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
