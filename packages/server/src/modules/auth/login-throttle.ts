import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { loginThrottles } from '../../db/schema.js';

export const THROTTLE = {
  windowMs: 15 * 60 * 1000,
  lockMs: 15 * 60 * 1000,
  perAccount: 5,
  perIp: 20,
} as const;

/** When a key (an e-mail, known or not, or an IP) is locked, until when. */
export async function lockedUntil(db: DbOrTx, key: string, now = new Date()): Promise<Date | null> {
  const [row] = await db.select().from(loginThrottles).where(eq(loginThrottles.key, key));
  return row?.lockedUntil && row.lockedUntil > now ? row.lockedUntil : null;
}

/** Counts a failure in the current window; past the limit the key is locked for a while. */
export async function recordFailure(db: DbOrTx, key: string, limit: number, now = new Date()): Promise<void> {
  const windowStart = new Date(now.getTime() - THROTTLE.windowMs);
  const lock = new Date(now.getTime() + THROTTLE.lockMs);
  await db
    .insert(loginThrottles)
    .values({ key, failures: 1, windowStart: now })
    .onConflictDoUpdate({
      target: loginThrottles.key,
      set: {
        failures: sql`case when ${loginThrottles.windowStart} < ${windowStart} then 1 else ${loginThrottles.failures} + 1 end`,
        windowStart: sql`case when ${loginThrottles.windowStart} < ${windowStart} then ${now} else ${loginThrottles.windowStart} end`,
        lockedUntil: sql`case when ${loginThrottles.windowStart} >= ${windowStart} and ${loginThrottles.failures} + 1 >= ${limit} then ${lock} else ${loginThrottles.lockedUntil} end`,
      },
    });
}

export async function clearFailures(db: DbOrTx, key: string): Promise<void> {
  await db.delete(loginThrottles).where(eq(loginThrottles.key, key));
}
