import { asc, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import {
  analyticalPrincipleMethods,
  bvSpecificationDiseaseStates,
  diseaseStates,
  ethnicities,
  matrices,
  matrixConsolidationMembers,
  matrixConsolidations,
  statesOfWellBeing,
  units,
} from '../../db/schema.js';

export async function listMatrices(db: DbOrTx) {
  return db.select().from(matrices).orderBy(asc(matrices.id));
}

export async function findMatrix(db: DbOrTx, id: number) {
  const [row] = await db.select().from(matrices).where(eq(matrices.id, id));
  return row;
}

export async function findMatricesByIds(db: DbOrTx, ids: number[]) {
  return db.select().from(matrices).where(inArray(matrices.id, ids)).orderBy(asc(matrices.id));
}

/** Every consolidation with one row per member matrix. */
export async function listConsolidationMembers(db: DbOrTx) {
  return db
    .select({
      id: matrixConsolidations.id,
      name: matrixConsolidations.name,
      matrixId: matrixConsolidationMembers.matrixId,
    })
    .from(matrixConsolidations)
    .innerJoin(
      matrixConsolidationMembers,
      eq(matrixConsolidationMembers.consolidationId, matrixConsolidations.id),
    );
}

/** The consolidation whose members are exactly the given matrices, if one exists. */
export async function findConsolidationForMatrices(db: DbOrTx, ids: number[]) {
  const rows = await listConsolidationMembers(db);
  const byId = new Map<number, { id: number; name: string; matrix_ids: number[] }>();
  for (const r of rows) {
    const c = byId.get(r.id) ?? { id: r.id, name: r.name, matrix_ids: [] };
    c.matrix_ids.push(r.matrixId);
    byId.set(r.id, c);
  }
  const wanted = [...new Set(ids)].sort((a, b) => a - b).join(',');
  for (const c of byId.values()) {
    c.matrix_ids.sort((a, b) => a - b);
    if (c.matrix_ids.join(',') === wanted) return c;
  }
  return null;
}

export async function findStateOfWellBeing(db: DbOrTx, id: number) {
  const [row] = await db.select().from(statesOfWellBeing).where(eq(statesOfWellBeing.id, id));
  return row;
}

export async function listDiseasesOfDataset(db: DbOrTx, datasetId: number) {
  return db
    .select({ id: diseaseStates.id, item_type: diseaseStates.itemType })
    .from(bvSpecificationDiseaseStates)
    .innerJoin(diseaseStates, eq(diseaseStates.id, bvSpecificationDiseaseStates.diseaseStateId))
    .where(eq(bvSpecificationDiseaseStates.bvSpecificationId, datasetId))
    .orderBy(asc(diseaseStates.id));
}

/** The disease states of many datasets, one row per dataset and disease. */
export async function listDiseasesOfDatasets(db: DbOrTx, datasetIds: number[]) {
  if (datasetIds.length === 0) return [];
  return db
    .select({
      datasetId: bvSpecificationDiseaseStates.bvSpecificationId,
      id: diseaseStates.id,
      item_type: diseaseStates.itemType,
    })
    .from(bvSpecificationDiseaseStates)
    .innerJoin(diseaseStates, eq(diseaseStates.id, bvSpecificationDiseaseStates.diseaseStateId))
    .where(inArray(bvSpecificationDiseaseStates.bvSpecificationId, datasetIds))
    .orderBy(asc(diseaseStates.id));
}

/** Every lookup table at once (the forms' choices). */
export async function listAllLookups(db: DbOrTx) {
  const [m, s, d, e, u, p] = await Promise.all([
    db.select().from(matrices).orderBy(asc(matrices.id)),
    db.select().from(statesOfWellBeing).orderBy(asc(statesOfWellBeing.id)),
    db.select().from(diseaseStates).orderBy(asc(diseaseStates.id)),
    db.select().from(ethnicities).orderBy(asc(ethnicities.id)),
    db.select({ id: units.id, name: units.name }).from(units).orderBy(asc(units.name)),
    db.select().from(analyticalPrincipleMethods).orderBy(asc(analyticalPrincipleMethods.name)),
  ]);
  return { matrices: m, statesOfWellBeing: s, diseases: d, ethnicities: e, units: u, methods: p };
}
