import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';
import { appState } from '../db/schema.js';

const DATA_GENERATION_KEY = 'data_generation';

/** Every write bumps this shared counter in its transaction, so every server's read cache lets go. */
export async function bumpDataGeneration(db: DbOrTx): Promise<number> {
  const [row] = await db
    .insert(appState)
    .values({ key: DATA_GENERATION_KEY, value: sql`'1'::jsonb` })
    .onConflictDoUpdate({
      target: appState.key,
      set: { value: sql`to_jsonb((${appState.value})::text::int + 1)`, updatedAt: sql`now()` },
    })
    .returning({ value: appState.value });
  return typeof row?.value === 'number' ? row.value : 1;
}

/** The shared counter as last committed by any process (0 before the first write). */
export async function readDataGeneration(db: DbOrTx): Promise<number> {
  const [row] = await db
    .select({ value: appState.value })
    .from(appState)
    .where(eq(appState.key, DATA_GENERATION_KEY));
  return typeof row?.value === 'number' ? row.value : 0;
}
