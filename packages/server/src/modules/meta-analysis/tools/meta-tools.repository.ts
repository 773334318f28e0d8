import { asc, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../../db/client.js';
import { analytes, bvSpecifications, matrices, references } from '../../../db/schema.js';

/** Datasets by id with what the validation table shows of their reference, measurand and matrix. */
export async function listSpecsForValidation(db: DbOrTx, ids: number[]) {
  if (ids.length === 0) return [];
  return db
    .select({
      spec: bvSpecifications,
      referenceTitle: references.title,
      analyteName: analytes.displayName,
      matrixName: matrices.matrixExpansion,
    })
    .from(bvSpecifications)
    .innerJoin(references, eq(references.id, bvSpecifications.referenceId))
    .innerJoin(analytes, eq(analytes.id, bvSpecifications.analyteId))
    .leftJoin(matrices, eq(matrices.id, bvSpecifications.matrixId))
    .where(inArray(bvSpecifications.id, ids))
    .orderBy(asc(bvSpecifications.id));
}

export type ValidationSpecRow = Awaited<ReturnType<typeof listSpecsForValidation>>[number];
