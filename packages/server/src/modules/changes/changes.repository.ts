import { and, asc, desc, eq, gt, isNotNull, lte, max, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client.js';
import { changeLog, estimateVersions } from '../../db/schema.js';

export type ChangeRow = typeof changeLog.$inferSelect;
export type VersionRow = typeof estimateVersions.$inferSelect;

/** A change with, for an estimate, the version it wrote (`to`) and the one before (`from`). */
export interface ChangeWithVersions {
  change: ChangeRow & { cursor: number };
  to: VersionRow | null;
  from: VersionRow | null;
}

const toVersion = alias(estimateVersions, 'to_version');
const fromVersion = alias(estimateVersions, 'from_version');

/**
 * Sealed changes (cursor given at commit, decision 056) after `since` in cursor order, or the
 * latest ones first (`newestFirst`, the Atom feeds); optionally of one measurand.
 */
export async function listChanges(
  db: DbOrTx,
  opts: { since?: number; until?: number; limit: number; analyteId?: number; newestFirst?: boolean },
): Promise<ChangeWithVersions[]> {
  const rows = await db
    .select({ change: changeLog, to: toVersion, from: fromVersion })
    .from(changeLog)
    .leftJoin(
      toVersion,
      and(eq(toVersion.estimateId, changeLog.estimateId), eq(toVersion.version, changeLog.version)),
    )
    .leftJoin(
      fromVersion,
      and(
        eq(fromVersion.estimateId, changeLog.estimateId),
        eq(fromVersion.version, sql`${changeLog.version} - 1`),
      ),
    )
    .where(
      and(
        isNotNull(changeLog.cursor),
        opts.since === undefined ? undefined : gt(changeLog.cursor, opts.since),
        opts.until === undefined ? undefined : lte(changeLog.cursor, opts.until),
        opts.analyteId === undefined ? undefined : eq(changeLog.analyteId, opts.analyteId),
      ),
    )
    .orderBy(opts.newestFirst ? desc(changeLog.cursor) : asc(changeLog.cursor))
    .limit(opts.limit);
  return rows as ChangeWithVersions[];
}

/** The cursor of the latest sealed change (0 when the feed is empty). */
export async function latestCursor(db: DbOrTx): Promise<number> {
  const [row] = await db.select({ cursor: max(changeLog.cursor) }).from(changeLog);
  return Number(row?.cursor ?? 0);
}

/**
 * What changed after `since`, in cursor order, without the versions: what kept indexes need to know
 * (which records to read again). At most `limit` rows.
 */
export async function listChangedRecords(db: DbOrTx, since: number, limit: number) {
  const rows = await db
    .select({
      cursor: changeLog.cursor,
      entity: changeLog.entity,
      entityId: changeLog.entityId,
      analyteId: changeLog.analyteId,
    })
    .from(changeLog)
    .where(and(isNotNull(changeLog.cursor), gt(changeLog.cursor, since)))
    .orderBy(asc(changeLog.cursor))
    .limit(limit);
  return rows.map((r) => ({ ...r, cursor: Number(r.cursor) }));
}
