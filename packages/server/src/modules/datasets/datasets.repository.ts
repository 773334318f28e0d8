import { and, asc, count, desc, eq, gt, gte, inArray, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client.js';
import { idIn } from '../../db/id-in.js';
import { NARROW_PAGE_ROWS, pastId, readInPages } from '../../db/read-in-pages.js';
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
    .where(idIn(bvSpecificationDiseaseStates.bvSpecificationId, ids))
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

/** The ids of a filter's datasets in the default order (by measurand name, newest reference first). */
export async function listDatasetIdsByName(db: DbOrTx, f: Omit<DatasetFilter, 'limit' | 'offset' | 'order'>) {
  const rows = await db
    .select({ id: bvSpecifications.id })
    .from(bvSpecifications)
    .innerJoin(analytes, eq(analytes.id, bvSpecifications.analyteId))
    .innerJoin(references, eq(references.id, bvSpecifications.referenceId))
    .where(whereOf(f))
    .orderBy(asc(analytes.displayName), desc(references.yearOfPublication), asc(bvSpecifications.id));
  return rows.map((r) => r.id);
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
  return (await datasetsByIds(db, ids, true)).rows;
}

/** The visible datasets among `ids`, in id order (a batch of single-record reads). */
export async function findVisibleDatasets(db: DbOrTx, ids: number[], signedIn: boolean) {
  return (await datasetsByIds(db, ids, signedIn)).rows;
}

/**
 * The row version of a dataset: PostgreSQL's `xmin`, the transaction that wrote the row's current
 * version. Every write to a dataset (its form, its grades, an import) writes a new row version, and
 * its disease states are only ever replaced together with it, so an unchanged `xmin` means an
 * unchanged dataset (decision 057). Read in the same statement as the row it describes.
 */
const rowVersion = sql<string>`${bvSpecifications}.xmin::text`;

/** Published datasets by id with the row version each was read at (the kept public rows). */
export async function findPublishedDatasetsWithVersions(db: DbOrTx, ids: number[]) {
  return datasetsByIds(db, ids, false);
}

/**
 * Datasets by id, in id order, the same rows `selectDatasets` gives, read so that the cost follows
 * the number of ids, not the size of the catalogue (issue 26, point 4; decision 042): the lookup
 * tables (a few dozen rows each) are joined, while references and measurands, which grow with the
 * catalogue, are fetched by their ids through their primary keys. Joined, the planner hashed the
 * whole measurands table for every page (7,100 rows at 100× the demo: 30 ms on PGlite), and without
 * statistics (PGlite never analyses) it also ANDed the published index (every row) to the ids; so
 * `published` is checked here on the rows read.
 */
async function datasetsByIds(
  db: DbOrTx,
  ids: number[],
  signedIn: boolean,
): Promise<{ rows: DatasetRow[]; versions: Map<number, string> }> {
  const versions = new Map<number, string>();
  if (ids.length === 0) return { rows: [], versions };
  const specs = (
    await db
      .select({
        version: rowVersion,
        spec: bvSpecifications,
        matrix: matrices,
        state: statesOfWellBeing,
        ethnicity: ethnicities,
        unit: units.name,
        secondUnit: secondUnits.name,
        method: analyticalPrincipleMethods.name,
      })
      .from(bvSpecifications)
      .leftJoin(matrices, eq(matrices.id, bvSpecifications.matrixId))
      .leftJoin(statesOfWellBeing, eq(statesOfWellBeing.id, bvSpecifications.stateOfWellBeingId))
      .leftJoin(ethnicities, eq(ethnicities.id, bvSpecifications.ethnicityId))
      .leftJoin(units, eq(units.id, bvSpecifications.unitId))
      .leftJoin(secondUnits, eq(secondUnits.id, bvSpecifications.secondUnitId))
      .leftJoin(
        analyticalPrincipleMethods,
        eq(analyticalPrincipleMethods.id, bvSpecifications.overallPrincipleMethodId),
      )
      .where(idIn(bvSpecifications.id, ids))
      .orderBy(asc(bvSpecifications.id))
  ).filter((r) => signedIn || r.spec.published);
  if (specs.length === 0) return { rows: [], versions };
  for (const r of specs) versions.set(r.spec.id, r.version);
  const distinct = (xs: number[]) => [...new Set(xs)];
  // One after the other: `db` may be an open transaction, one connection.
  const referenceRows = await db
    .select()
    .from(references)
    .where(idIn(references.id, distinct(specs.map((r) => r.spec.referenceId))));
  const analyteRows = await db
    .select({ id: analytes.id, displayName: analytes.displayName })
    .from(analytes)
    .where(idIn(analytes.id, distinct(specs.map((r) => r.spec.analyteId))));
  const referenceOf = new Map(referenceRows.map((r) => [r.id, r]));
  const analyteOf = new Map(analyteRows.map((a) => [a.id, a]));
  const rows: Awaited<ReturnType<ReturnType<typeof selectDatasets>['execute']>> = [];
  for (const { spec, matrix, state, ethnicity, unit, secondUnit, method } of specs) {
    const reference = referenceOf.get(spec.referenceId);
    const analyte = analyteOf.get(spec.analyteId);
    // Both are required columns with foreign keys: the inner joins of `selectDatasets` drop nothing.
    if (!reference || !analyte) continue;
    rows.push({ spec, reference, analyte, matrix, state, ethnicity, unit, secondUnit, method });
  }
  return { rows: await withDiseases(db, rows), versions };
}

export async function countDatasets(
  db: DbOrTx,
  f: Pick<DatasetFilter, 'signedIn' | 'updatedSince' | 'analyteId'>,
) {
  const [row] = await db.select({ n: count() }).from(bvSpecifications).where(whereOf(f));
  return row?.n ?? 0;
}

export async function findVisibleDataset(db: DbOrTx, id: number, signedIn: boolean) {
  const [row] = (await datasetsByIds(db, [id], signedIn)).rows;
  return row;
}

/** Every published dataset's id, measurand, last change and row version, in id order: the public read model's index. */
export async function listPublishedDatasetIndex(db: DbOrTx) {
  // 20,200 rows at 100× the demo: in pages (issue 44.1).
  return readInPages(
    (after: number | undefined, limit) =>
      db
        .select({
          id: bvSpecifications.id,
          analyteId: bvSpecifications.analyteId,
          updatedAt: bvSpecifications.updatedAt,
          version: rowVersion,
        })
        .from(bvSpecifications)
        .where(and(visibleTo(false), pastId(bvSpecifications.id, after)))
        .orderBy(asc(bvSpecifications.id))
        .limit(limit),
    (r) => r.id,
    NARROW_PAGE_ROWS,
  );
}
