import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { loginThrottles } from '../../db/schema.js';

/** Until when a key (an e-mail, known or not, or an IP) was locked, if it ever was. */
export async function findLockedUntil(db: DbOrTx, key: string): Promise<Date | null> {
  const [row] = await db
    .select({ lockedUntil: loginThrottles.lockedUntil })
    .from(loginThrottles)
    .where(eq(loginThrottles.key, key));
  return row?.lockedUntil ?? null;
}

/**
 * Counts a failure in the window that began at `windowStart` (an older count starts again at 1);
 * reaching `limit` within the window locks the key until `lockUntil`. One statement, so two
 * failures at once both count.
 */
export async function countFailure(
  db: DbOrTx,
  key: string,
  opts: { now: Date; windowStart: Date; limit: number; lockUntil: Date },
): Promise<void> {
  const { now, windowStart, limit, lockUntil } = opts;
  await db
    .insert(loginThrottles)
    .values({ key, failures: 1, windowStart: now })
    .onConflictDoUpdate({
      target: loginThrottles.key,
      set: {
        failures: sql`case when ${loginThrottles.windowStart} < ${windowStart} then 1 else ${loginThrottles.failures} + 1 end`,
        windowStart: sql`case when ${loginThrottles.windowStart} < ${windowStart} then ${now} else ${loginThrottles.windowStart} end`,
        lockedUntil: sql`case when ${loginThrottles.windowStart} >= ${windowStart} and ${loginThrottles.failures} + 1 >= ${limit} then ${lockUntil} else ${loginThrottles.lockedUntil} end`,
      },
    });
}

export async function deleteFailures(db: DbOrTx, key: string): Promise<void> {
  await db.delete(loginThrottles).where(eq(loginThrottles.key, key));
}
