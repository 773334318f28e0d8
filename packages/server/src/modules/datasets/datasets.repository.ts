import { and, asc, count, desc, eq, gt, gte, inArray, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client.js';
import {
  analyticalPrincipleMethods,
  analytes,
  bvSpecificationDiseaseStates,
  bvSpecifications,
  diseaseStates,
  ethnicities,
  matrices,
  references,
  statesOfWellBeing,
  units,
} from '../../db/schema.js';

const secondUnits = alias(units, 'second_units');

/** One dataset row with everything its public shape needs, in one query. */
function selectDatasets(db: DbOrTx) {
  return db
    .select({
      spec: bvSpecifications,
      reference: references,
      analyte: { id: analytes.id, displayName: analytes.displayName },
      matrix: matrices,
      state: statesOfWellBeing,
      ethnicity: ethnicities,
      unit: units.name,
      secondUnit: secondUnits.name,
      method: analyticalPrincipleMethods.name,
    })
    .from(bvSpecifications)
    .innerJoin(references, eq(references.id, bvSpecifications.referenceId))
    .innerJoin(analytes, eq(analytes.id, bvSpecifications.analyteId))
    .leftJoin(matrices, eq(matrices.id, bvSpecifications.matrixId))
    .leftJoin(statesOfWellBeing, eq(statesOfWellBeing.id, bvSpecifications.stateOfWellBeingId))
    .leftJoin(ethnicities, eq(ethnicities.id, bvSpecifications.ethnicityId))
    .leftJoin(units, eq(units.id, bvSpecifications.unitId))
    .leftJoin(secondUnits, eq(secondUnits.id, bvSpecifications.secondUnitId))
    .leftJoin(
      analyticalPrincipleMethods,
      eq(analyticalPrincipleMethods.id, bvSpecifications.overallPrincipleMethodId),
    );
}

export type DatasetRow = Awaited<ReturnType<ReturnType<typeof selectDatasets>['execute']>>[number] & {
  diseases: { id: number; item_type: string }[];
};

async function withDiseases(
  db: DbOrTx,
  rows: Awaited<ReturnType<ReturnType<typeof selectDatasets>['execute']>>,
): Promise<DatasetRow[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.spec.id);
  const links = await db
    .select({
      specId: bvSpecificationDiseaseStates.bvSpecificationId,
      id: diseaseStates.id,
      item_type: diseaseStates.itemType,
    })
    .from(bvSpecificationDiseaseStates)
    .innerJoin(diseaseStates, eq(diseaseStates.id, bvSpecificationDiseaseStates.diseaseStateId))
    .where(inArray(bvSpecificationDiseaseStates.bvSpecificationId, ids))
    .orderBy(asc(diseaseStates.id));
  const bySpec = new Map<number, { id: number; item_type: string }[]>();
  for (const l of links) {
    const list = bySpec.get(l.specId) ?? [];
    list.push({ id: l.id, item_type: l.item_type });
    bySpec.set(l.specId, list);
  }
  return rows.map((r) => ({ ...r, diseases: bySpec.get(r.spec.id) ?? [] }));
}

export const visibleTo = (signedIn: boolean): SQL | undefined =>
  signedIn ? undefined : eq(bvSpecifications.published, true);

export interface DatasetFilter {
  signedIn: boolean;
  analyteId?: number;
  referenceId?: number;
  ids?: number[];
  updatedSince?: Date;
  /** Keyset paging: only ids above this one (with `order: 'id'`). */
  afterId?: number;
  limit?: number;
  offset?: number;
  /**
   * `name` (default): by measurand name, newest reference first. `id`: by id alone, which the primary
   * key serves without sorting the table (the paged and streamed public lists).
   */
  order?: 'name' | 'id';
}

const whereOf = (f: Omit<DatasetFilter, 'limit' | 'offset' | 'order'>) =>
  and(
    visibleTo(f.signedIn),
    f.analyteId !== undefined ? eq(bvSpecifications.analyteId, f.analyteId) : undefined,
    f.referenceId !== undefined ? eq(bvSpecifications.referenceId, f.referenceId) : undefined,
    f.ids ? inArray(bvSpecifications.id, f.ids) : undefined,
    f.updatedSince ? gte(bvSpecifications.updatedAt, f.updatedSince) : undefined,
    f.afterId !== undefined ? gt(bvSpecifications.id, f.afterId) : undefined,
  );

export async function listDatasets(db: DbOrTx, f: DatasetFilter): Promise<DatasetRow[]> {
  if (f.order === 'id') return listDatasetsById(db, f);
  let q = selectDatasets(db)
    .where(whereOf(f))
    .orderBy(asc(analytes.displayName), desc(references.yearOfPublication), asc(bvSpecifications.id))
    .$dynamic();
  if (f.limit !== undefined) q = q.limit(f.limit);
  if (f.offset !== undefined) q = q.offset(f.offset);
  return withDiseases(db, await q);
}

/**
 * A page in id order in two steps: the ids from the primary key alone (filters are all columns of
 * the table itself), then the joined rows of just those ids. The planner never joins or sorts the
 * whole table to find one page, however deep the offset.
 */
async function listDatasetsById(db: DbOrTx, f: DatasetFilter): Promise<DatasetRow[]> {
  let q = db
    .select({ id: bvSpecifications.id })
    .from(bvSpecifications)
    .where(whereOf(f))
    .orderBy(asc(bvSpecifications.id))
    .$dynamic();
  if (f.limit !== undefined) q = q.limit(f.limit);
  if (f.offset !== undefined) q = q.offset(f.offset);
  const ids = (await q).map((r) => r.id);
  if (ids.length === 0) return [];
  const rows = await selectDatasets(db)
    .where(inArray(bvSpecifications.id, ids))
    .orderBy(asc(bvSpecifications.id));
  return withDiseases(db, rows);
}

/** The visible datasets among `ids`, in id order (a batch of single-record reads in one query). */
export async function findVisibleDatasets(db: DbOrTx, ids: number[], signedIn: boolean) {
  if (ids.length === 0) return [];
  const rows = await selectDatasets(db)
    .where(and(inArray(bvSpecifications.id, ids), visibleTo(signedIn)))
    .orderBy(asc(bvSpecifications.id));
  return withDiseases(db, rows);
}

export async function countDatasets(
  db: DbOrTx,
  f: Pick<DatasetFilter, 'signedIn' | 'updatedSince' | 'analyteId'>,
) {
  const [row] = await db.select({ n: count() }).from(bvSpecifications).where(whereOf(f));
  return row?.n ?? 0;
}

export async function findVisibleDataset(db: DbOrTx, id: number, signedIn: boolean) {
  const rows = await selectDatasets(db).where(and(eq(bvSpecifications.id, id), visibleTo(signedIn)));
  const [row] = await withDiseases(db, rows);
  return row;
}

/** Every published dataset's id, measurand and last change, in id order: the public read model's index. */
export async function listPublishedDatasetIndex(db: DbOrTx) {
  return db
    .select({
      id: bvSpecifications.id,
      analyteId: bvSpecifications.analyteId,
      updatedAt: bvSpecifications.updatedAt,
    })
    .from(bvSpecifications)
    .where(visibleTo(false))
    .orderBy(asc(bvSpecifications.id));
}
