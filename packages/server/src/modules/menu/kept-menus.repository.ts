import { and, count, desc, eq, isNull, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { menus } from '../../db/schema.js';

export type MenuRow = typeof menus.$inferSelect;
export type NewMenuRow = typeof menus.$inferInsert;

export async function insertMenu(db: DbOrTx, row: NewMenuRow): Promise<MenuRow> {
  const [saved] = await db.insert(menus).values(row).returning();
  return saved!;
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
  set: Partial<Pick<MenuRow, 'name' | 'keptValues' | 'keptAt' | 'level' | 'probability'>>,
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
