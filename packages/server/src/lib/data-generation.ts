import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';
import { appState } from '../db/schema.js';
import { DATA_GENERATION_KEY } from './cached-json.js';

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
