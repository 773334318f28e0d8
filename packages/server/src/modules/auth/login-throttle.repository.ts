import { eq, inArray, max, sql, type SQL } from 'drizzle-orm';
import { isEmbeddedDb, type Db, type DbOrTx } from '../../db/client.js';
import { loginThrottles } from '../../db/schema.js';
import { MemoryLoginThrottle } from './login-throttle.memory.js';
import type { ThrottleKey, ThrottlePolicy } from './login-throttle.types.js';

/**
 * Counts one password check against every key at once, before the check is made, in one statement:
 * a key that is locked (or another key of the same attempt that is) refuses, and the locked key's
 * row is left as it is. The row a counter reaches `limit` with locks the key, for `baseLockMs`
 * doubling with every further checked attempt. Row locks taken by `on conflict do update` make
 * concurrent attempts queue on the key, so no more than `limit` checks pass, whatever the
 * concurrency. Returns whether the check may go ahead.
 */
export async function admitAttempt(
  db: DbOrTx,
  keys: ThrottleKey[],
  policy: ThrottlePolicy,
  now: Date,
): Promise<boolean> {
  // A fixed order of keys, so two attempts never wait on each other's rows crosswise.
  const sorted = [...keys].sort((a, b) => (a.key < b.key ? -1 : 1));
  const names = sorted.map((k) => k.key);
  const windowStart = new Date(now.getTime() - policy.windowMs);
  const t = sql.raw('login_throttles');
  const limitOf = sql.join(
    [sql`case`, ...sorted.map((k) => sql`when ${t}.key = ${k.key} then ${k.limit}::int`), sql`end`],
    sql` `,
  );
  const forgotten = sql`coalesce(${t}.locked_until, ${t}.window_start) < ${windowStart}`;
  const next = sql`(case when ${forgotten} then 1 else ${t}.failures + 1 end)`;
  const lockSeconds = sql`least(${policy.baseLockMs / 1000}::float8 * power(2, ${next} - ${limitOf}), ${policy.maxLockMs / 1000}::float8)`;
  const values = sql.join(
    names.map((key) => sql`(${key}::text)`),
    sql`, `,
  );
  const otherLocked = (self: SQL) =>
    sql`exists (select 1 from login_throttles o where o.key in (${sql.join(
      names.map((n) => sql`${n}`),
      sql`, `,
    )}) and o.key <> ${self} and o.locked_until > ${now})`;
  // Both drivers (node-postgres and PGlite) answer raw statements with `rows`.
  const result: unknown = await db.execute(sql`
    insert into ${t} (key, failures, window_start, locked_until)
    select k.key, 1, ${now}::timestamptz, null
    from (values ${values}) as k(key)
    where not ${otherLocked(sql`k.key`)}
    on conflict (key) do update set
      failures = ${next},
      window_start = case when ${forgotten} then ${now}::timestamptz else ${t}.window_start end,
      locked_until = case when ${next} >= ${limitOf}
        then ${now}::timestamptz + ${lockSeconds} * interval '1 second' else null end
    where (${t}.locked_until is null or ${t}.locked_until <= ${now}) and not ${otherLocked(sql`${t}.key`)}
    returning ${t}.key`);
  return (result as { rows: unknown[] }).rows.length === names.length;
}

/** The latest moment any of these keys stays locked until (null when none is locked). */
export async function findLockedUntil(db: DbOrTx, keys: string[]): Promise<Date | null> {
  const [row] = await db
    .select({ until: max(loginThrottles.lockedUntil) })
    .from(loginThrottles)
    .where(inArray(loginThrottles.key, keys));
  return row?.until ?? null;
}

/** A check that succeeded forgets the key's run. */
export async function deleteThrottle(db: DbOrTx, key: string): Promise<void> {
  await db.delete(loginThrottles).where(eq(loginThrottles.key, key));
}

/**
 * Takes back one counted attempt (a check that succeeded, on a key others share): below the limit
 * again, the key is no longer locked.
 */
export async function uncountAttempt(db: DbOrTx, key: ThrottleKey): Promise<void> {
  await db
    .update(loginThrottles)
    .set({
      failures: sql`greatest(${loginThrottles.failures} - 1, 0)`,
      lockedUntil: sql`case when ${loginThrottles.failures} - 1 < ${key.limit} then null else ${loginThrottles.lockedUntil} end`,
    })
    .where(eq(loginThrottles.key, key.key));
}

/** Where the sign-in throttle keeps its counters: the same four steps whatever the engine. */
export interface LoginThrottle {
  admit(keys: ThrottleKey[], policy: ThrottlePolicy, now: Date): Promise<boolean>;
  lockedUntil(keys: string[]): Promise<Date | null>;
  forget(key: string): Promise<void>;
  uncount(key: ThrottleKey): Promise<void>;
}

const inMemory = new WeakMap<Db, MemoryLoginThrottle>();

/**
 * The embedded database's throttle in this process's memory (one process opens its data folder, so
 * it sees every attempt; a counted attempt then costs no commit on the event loop); on PostgreSQL
 * the `login_throttles` table, so that every process counts against the same rows
 * (docs/decisions/061-sign-in-throttle-in-memory-and-first-pages.md).
 */
export function loginThrottleFor(db: Db): LoginThrottle {
  const memory = memoryLoginThrottleOf(db);
  if (memory) {
    return {
      admit: (keys, policy, now) => Promise.resolve(memory.admit(keys, policy, now)),
      lockedUntil: (keys) => Promise.resolve(memory.lockedUntil(keys)),
      forget: (key) => Promise.resolve(memory.forget(key)),
      uncount: (key) => Promise.resolve(memory.uncount(key)),
    };
  }
  return {
    admit: (keys, policy, now) => admitAttempt(db, keys, policy, now),
    lockedUntil: (keys) => findLockedUntil(db, keys),
    forget: (key) => deleteThrottle(db, key),
    uncount: (key) => uncountAttempt(db, key),
  };
}

/** The in-memory counters of an embedded database (undefined on PostgreSQL), made on first use. */
export function memoryLoginThrottleOf(db: Db): MemoryLoginThrottle | undefined {
  if (!isEmbeddedDb(db)) return undefined;
  let memory = inMemory.get(db);
  if (!memory) inMemory.set(db, (memory = new MemoryLoginThrottle()));
  return memory;
}
