import { and, count, desc, eq, getTableColumns, isNull, lt, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { menus } from '../../db/schema.js';

export type MenuRow = typeof menus.$inferSelect;
export type NewMenuRow = typeof menus.$inferInsert;

export async function insertMenu(
  db: DbOrTx,
  row: Omit<NewMenuRow, 'keptValues'> & { keptValues: SQL },
): Promise<MenuRow> {
  const [saved] = await db.insert(menus).values(row).returning();
  return saved!;
}

/** JSON text made elsewhere (a menu thread) stored as jsonb: never parsed and written again here. */
export const jsonText = (text: string): SQL => sql`${text}::jsonb`;

/**
 * A menu to open again: its kept values as the database's JSON text, parsed in a menu thread (a
 * 1,000-test menu keeps about 1 MB of them), not on the event loop.
 */
export async function findMenuForOpening(
  db: DbOrTx,
  id: string,
): Promise<{ row: MenuRow; keptJson: string } | undefined> {
  const { keptValues: _kept, ...columns } = getTableColumns(menus);
  const [found] = await db
    .select({ ...columns, keptJson: sql<string>`${menus.keptValues}::text` })
    .from(menus)
    .where(eq(menus.id, id));
  if (!found) return undefined;
  const { keptJson, ...row } = found;
  return { row: { ...row, keptValues: [] }, keptJson };
}

export async function findMenu(db: DbOrTx, id: string): Promise<MenuRow | undefined> {
  const [row] = await db.select().from(menus).where(eq(menus.id, id));
  return row;
}

/** Notes an opening, at most once an hour (a link read a hundred times a day is not a hundred writes). */
export async function markOpened(db: DbOrTx, id: string, now: Date): Promise<void> {
  await db
    .update(menus)
    .set({ openedAt: now })
    .where(and(eq(menus.id, id), lt(menus.openedAt, new Date(now.getTime() - 60 * 60 * 1000))));
}

export async function listMenusOf(db: DbOrTx, ownerId: number, limit: number, offset: number) {
  const rows = await db
    .select()
    .from(menus)
    .where(eq(menus.ownerId, ownerId))
    .orderBy(desc(menus.updatedAt), menus.id)
    .limit(limit)
    .offset(offset);
  const [total] = await db.select({ n: count() }).from(menus).where(eq(menus.ownerId, ownerId));
  return { rows, total: total?.n ?? 0 };
}

/** Saves a change if the menu is still at `version`, as the next version; undefined when it was not. */
export async function updateMenuAt(
  db: DbOrTx,
  id: string,
  version: number,
  set: Partial<Pick<MenuRow, 'name' | 'keptAt' | 'level' | 'probability' | 'population'>> & {
    keptValues?: SQL;
  },
): Promise<MenuRow | undefined> {
  const [row] = await db
    .update(menus)
    .set({ ...set, version: sql`${menus.version} + 1`, updatedAt: new Date() })
    .where(and(eq(menus.id, id), eq(menus.version, version)))
    .returning();
  return row;
}

export async function deleteMenuRow(db: DbOrTx, id: string): Promise<boolean> {
  const rows = await db.delete(menus).where(eq(menus.id, id)).returning({ id: menus.id });
  return rows.length > 0;
}

/** Deletes the link menus (no owner) last opened before `before`; the number deleted. */
export async function deleteLinkMenusOpenedBefore(db: DbOrTx, before: Date): Promise<number> {
  const rows = await db
    .delete(menus)
    .where(and(isNull(menus.ownerId), lt(menus.openedAt, before)))
    .returning({ id: menus.id });
  return rows.length;
}

/**
 * A new menu copied from `fromId` (with its population, decision 101) in the database (its lines and kept values are never read into
 * the process: a 1,000-test menu's 1 MB of JSON stays off the event loop); undefined when it is gone.
 */
export async function copyMenuRow(
  db: DbOrTx,
  fromId: string,
  set: { id: string; ownerId: number; name: string; openedAt: Date },
): Promise<MenuRow | undefined> {
  const [row] = await db
    .insert(menus)
    .select(
      db
        .select({
          id: sql<string>`${set.id}`.as('id'),
          ownerId: sql<number>`${set.ownerId}::integer`.as('owner_id'),
          name: sql<string>`${set.name}`.as('name'),
          level: menus.level,
          probability: menus.probability,
          testCount: menus.testCount,
          lines: menus.lines,
          keptValues: menus.keptValues,
          population: menus.population,
          keptAt: menus.keptAt,
          openedAt: sql<Date>`${set.openedAt.toISOString()}::timestamptz`.as('opened_at'),
          version: sql<number>`1`.as('version'),
          createdAt: sql<Date>`now()`.as('created_at'),
          updatedAt: sql<Date>`now()`.as('updated_at'),
        })
        .from(menus)
        .where(eq(menus.id, fromId)),
    )
    .returning();
  return row;
}
