/** The jobs tracker and the recompute's outbox (decision 048). */
import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { analytes } from './analytes.js';
import { stamps } from './columns.js';

export const jobs = pgTable(
  'jobs',
  {
    id: serial('id').primaryKey(),
    jid: text('jid'),
    name: text('name').notNull(),
    queue: text('queue').notNull(),
    className: text('class_name').notNull(),
    status: text('status').notNull().default('queued'),
    progressStage: text('progress_stage'),
    progressCurrent: integer('progress_current').notNull().default(0),
    progressMax: integer('progress_max').notNull().default(0),
    error: text('error'),
    payload: jsonb('payload'),
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }),
    finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
    ...stamps,
  },
  (t) => [
    check('jobs_status_ck', sql`${t.status} in ('queued', 'working', 'complete', 'failed')`),
    check('jobs_progress_ck', sql`${t.progressCurrent} >= 0 and ${t.progressMax} >= 0`),
    index('jobs_jid_idx').on(t.jid),
    index('jobs_created_idx').on(t.createdAt),
  ],
);

/**
 * Measurands whose meta-analyses wait for a recompute (an outbox, written in the same transaction as
 * the data change). One row per measurand, so requests coalesce; `generation` counts them, so a
 * request made while the measurand is being recomputed is not lost. A worker claims rows for
 * `claimed_until` (a lease it extends while it works): a killed worker's claims lapse and another
 * takes them over.
 */
export const metaRecomputeRequests = pgTable(
  'meta_recompute_requests',
  {
    analyteId: integer('analyte_id')
      .primaryKey()
      .references(() => analytes.id, { onDelete: 'cascade' }),
    generation: integer('generation').notNull().default(1),
    /** The tracker records (jobs.id) that count this measurand in their progress. */
    jobIds: integer('job_ids')
      .array()
      .notNull()
      .default(sql`'{}'::int[]`),
    requestedAt: timestamp('requested_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    claimedBy: text('claimed_by'),
    claimedUntil: timestamp('claimed_until', { withTimezone: true, mode: 'date' }),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    /**
     * Why the recompute was asked for (decision 048): the last request's cause when several merged.
     * `dataset` (a save, copy or delete), `appraisal` (final grades), `import`, `lookup`, `initial`;
     * the dataset it names, if any (no foreign key: a deleted dataset is a cause too); the role of
     * who asked (admin, curator, assessor, or system for the command line). Null for rows of a
     * previous release and leftover jobs of the former queue.
     */
    causeKind: text('cause_kind'),
    causeDatasetId: integer('cause_dataset_id'),
    causeRole: text('cause_role'),
  },
  (t) => [
    index('meta_recompute_requests_due_idx').on(t.requestedAt),
    check(
      'meta_recompute_requests_cause_kind_ck',
      sql`${t.causeKind} is null or ${t.causeKind} in ('dataset', 'appraisal', 'import', 'lookup', 'initial')`,
    ),
  ],
);
