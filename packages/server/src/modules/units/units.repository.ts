import { and, asc, eq, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { bvSpecifications, units } from '../../db/schema.js';

/** Units with the datasets using each as their unit or their second unit (each dataset counted once). */
function unitsWithUsage(db: DbOrTx) {
  return db
    .select({
      id: units.id,
      name: units.name,
      usageCount: sql<number>`count(distinct ${bvSpecifications.id})::int`,
      version: units.version,
    })
    .from(units)
    .leftJoin(
      bvSpecifications,
      or(eq(bvSpecifications.unitId, units.id), eq(bvSpecifications.secondUnitId, units.id)),
    )
    .groupBy(units.id)
    .$dynamic();
}

export async function listUnitsWithUsage(db: DbOrTx) {
  return unitsWithUsage(db).orderBy(asc(sql`lower(${units.name})`), asc(units.id));
}

export async function findUnitWithUsage(db: DbOrTx, id: number) {
  const [row] = await unitsWithUsage(db).where(eq(units.id, id));
  return row;
}

export async function findUnitByName(db: DbOrTx, name: string) {
  const [row] = await db.select().from(units).where(eq(units.name, name));
  return row;
}

export async function countDatasetsUsingUnit(db: DbOrTx, id: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(bvSpecifications)
    .where(or(eq(bvSpecifications.unitId, id), eq(bvSpecifications.secondUnitId, id)));
  return row?.n ?? 0;
}

/** The unit, locked until the end of the transaction (nothing can start using it meanwhile). */
export async function lockUnit(tx: DbOrTx, id: number) {
  const [row] = await tx.select().from(units).where(eq(units.id, id)).for('update');
  return row;
}

export async function insertUnit(tx: DbOrTx, name: string) {
  const [row] = await tx.insert(units).values({ name }).returning();
  return row!;
}

/** Renames the unit if it is still at `version`, as the next version; undefined when it was not. */
export async function renameUnit(tx: DbOrTx, id: number, name: string, version: number) {
  const [row] = await tx
    .update(units)
    .set({ name, version: sql`${units.version} + 1`, updatedAt: new Date() })
    .where(and(eq(units.id, id), eq(units.version, version)))
    .returning();
  return row;
}

export async function deleteUnit(tx: DbOrTx, id: number): Promise<void> {
  await tx.delete(units).where(eq(units.id, id));
}
