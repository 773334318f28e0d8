import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { analytes, measurandNames } from '../../db/schema.js';

/** A measurand's alternative names, in the order they were written. */
export function listNamesOf(db: DbOrTx, analyteId: number) {
  return db
    .select({ name: measurandNames.name, source: measurandNames.source, matchKey: measurandNames.matchKey })
    .from(measurandNames)
    .where(eq(measurandNames.analyteId, analyteId))
    .orderBy(asc(measurandNames.id));
}

/** The alternative names of these measurands (every measurand without `ids`), by id. */
export function listNamesByAnalyte(db: DbOrTx, ids?: number[]) {
  if (ids && ids.length === 0) return Promise.resolve([]);
  return db
    .select({ analyteId: measurandNames.analyteId, name: measurandNames.name })
    .from(measurandNames)
    .where(ids ? inArray(measurandNames.analyteId, ids) : undefined)
    .orderBy(asc(measurandNames.id));
}

/** The measurand (other than `analyteId`) whose alternative name has one of these keys. */
export function findNamesTakenByOthers(db: DbOrTx, analyteId: number, keys: string[]) {
  if (keys.length === 0) return Promise.resolve([]);
  return db
    .select({
      name: measurandNames.name,
      matchKey: measurandNames.matchKey,
      analyteId: measurandNames.analyteId,
      displayName: analytes.displayName,
    })
    .from(measurandNames)
    .innerJoin(analytes, eq(analytes.id, measurandNames.analyteId))
    .where(and(inArray(measurandNames.matchKey, keys), ne(measurandNames.analyteId, analyteId)));
}

/** Every other measurand's display and full names (a new name may not be one of them). */
export function listOtherMeasurandNames(db: DbOrTx, analyteId: number) {
  return db
    .select({ id: analytes.id, displayName: analytes.displayName, fullName: analytes.fullName })
    .from(analytes)
    .where(ne(analytes.id, analyteId));
}

/** Locks the measurand row for the change and returns its version. */
export async function lockAnalyteVersion(db: DbOrTx, id: number) {
  const [row] = await db
    .select({ id: analytes.id, version: analytes.version })
    .from(analytes)
    .where(eq(analytes.id, id))
    .for('update');
  return row;
}

/** The measurand's names replaced, its version moved on; the new version. */
export async function replaceNames(
  db: DbOrTx,
  analyteId: number,
  names: { name: string; matchKey: string; source: string | null }[],
): Promise<number> {
  await db.delete(measurandNames).where(eq(measurandNames.analyteId, analyteId));
  if (names.length > 0) await db.insert(measurandNames).values(names.map((n) => ({ analyteId, ...n })));
  return bumpAnalyteVersion(db, analyteId);
}

/** The measurand's version moved on (its names or codes changed); the new version. */
export async function bumpAnalyteVersion(db: DbOrTx, analyteId: number): Promise<number> {
  const [row] = await db
    .update(analytes)
    .set({ version: sql`${analytes.version} + 1`, updatedAt: sql`now()` })
    .where(eq(analytes.id, analyteId))
    .returning({ version: analytes.version });
  return row!.version;
}

/** The measurand's version (no lock), for reading. */
export async function findAnalyteVersion(db: DbOrTx, id: number) {
  const [row] = await db.select({ version: analytes.version }).from(analytes).where(eq(analytes.id, id));
  return row;
}

/** The measurand's own display and full names. */
export async function findOwnNames(db: DbOrTx, id: number) {
  const [row] = await db
    .select({ displayName: analytes.displayName, fullName: analytes.fullName })
    .from(analytes)
    .where(eq(analytes.id, id));
  return row;
}
