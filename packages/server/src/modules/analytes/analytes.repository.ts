import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { idIn } from '../../db/id-in.js';
import { NARROW_PAGE_ROWS, pastId, readInPages } from '../../db/read-in-pages.js';
import { analytes, bvSpecifications } from '../../db/schema.js';

export async function findAnalyte(db: DbOrTx, id: number) {
  const [row] = await db.select().from(analytes).where(eq(analytes.id, id));
  return row;
}

export async function findAnalytesByIds(db: DbOrTx, ids: number[]) {
  if (ids.length === 0) return [];
  return db.select().from(analytes).where(idIn(analytes.id, ids)).orderBy(asc(analytes.id));
}

/** Measurands with how many datasets the caller can see for each (0 included). */
export async function listAnalytesWithCounts(db: DbOrTx, signedIn: boolean) {
  const counted = db
    .select({ analyteId: bvSpecifications.analyteId, n: count().as('n') })
    .from(bvSpecifications)
    .where(signedIn ? undefined : eq(bvSpecifications.published, true))
    .groupBy(bvSpecifications.analyteId)
    .as('counted');
  return db
    .select({ analyte: analytes, count: sql<number>`coalesce(${counted.n}, 0)::int` })
    .from(analytes)
    .leftJoin(counted, eq(counted.analyteId, analytes.id))
    .orderBy(asc(analytes.displayName));
}

/**
 * How many datasets the caller can see for each of `ids` (ids without any are left out): reads only
 * those measurands' datasets, through the analyte index, whatever the size of the catalogue.
 */
export async function countDatasetsOfAnalytes(db: DbOrTx, ids: number[], signedIn: boolean) {
  if (ids.length === 0) return [];
  return db
    .select({ analyteId: bvSpecifications.analyteId, n: count() })
    .from(bvSpecifications)
    .where(
      and(
        inArray(bvSpecifications.analyteId, ids),
        signedIn ? undefined : eq(bvSpecifications.published, true),
      ),
    )
    .groupBy(bvSpecifications.analyteId);
}

/**
 * Published datasets with their measurand (all of them, or those of `ids` that are published):
 * what the search's kept counts are made of and moved by (decision 066).
 */
export async function listPublishedDatasetOwners(db: DbOrTx, ids?: number[]) {
  if (ids && ids.length === 0) return [];
  const published = eq(bvSpecifications.published, true);
  const select = () =>
    db.select({ id: bvSpecifications.id, analyteId: bvSpecifications.analyteId }).from(bvSpecifications);
  if (ids) return select().where(and(published, inArray(bvSpecifications.id, ids)));
  // Every published dataset (20,200 at 100× the demo): in pages, two narrow columns a row.
  return readInPages(
    (after: number | undefined, limit) =>
      select()
        .where(and(published, pastId(bvSpecifications.id, after)))
        .orderBy(asc(bvSpecifications.id))
        .limit(limit),
    (r) => r.id,
    NARROW_PAGE_ROWS,
  );
}

export async function findAnalyteWithCount(db: DbOrTx, id: number, signedIn: boolean) {
  const [a] = await db.select().from(analytes).where(eq(analytes.id, id));
  if (!a) return undefined;
  const [c] = await db
    .select({ n: count() })
    .from(bvSpecifications)
    .where(
      and(eq(bvSpecifications.analyteId, id), signedIn ? undefined : eq(bvSpecifications.published, true)),
    );
  return { analyte: a, count: c?.n ?? 0 };
}

/** Every measurand, in id order, for the in-memory search index (in pages: 7,100 at 100× the demo). */
export async function listAllAnalytes(db: DbOrTx) {
  return readInPages(
    (after: number | undefined, limit) =>
      db.select().from(analytes).where(pastId(analytes.id, after)).orderBy(asc(analytes.id)).limit(limit),
    (a) => a.id,
  );
}

export async function hasDemoAnalytes(db: DbOrTx): Promise<boolean> {
  const [row] = await db.select({ id: analytes.id }).from(analytes).where(eq(analytes.isDemo, true)).limit(1);
  return row !== undefined;
}
