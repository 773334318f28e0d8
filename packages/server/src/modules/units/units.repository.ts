import type { Unit } from '@bvdb/contract';
import { asc, eq, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { bvSpecifications, units } from '../../db/schema.js';

/** Units with the datasets using each as their unit or their second unit (each dataset counted once). */
function unitsWithUsage(db: DbOrTx) {
  return db
    .select({
      id: units.id,
      name: units.name,
      usage_count: sql<number>`count(distinct ${bvSpecifications.id})::int`,
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

export async function listUnitsWithUsage(db: DbOrTx): Promise<Unit[]> {
  return unitsWithUsage(db).orderBy(asc(sql`lower(${units.name})`), asc(units.id));
}

export async function findUnitWithUsage(db: DbOrTx, id: number): Promise<Unit | undefined> {
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
