/** The change feed (decision 056). */
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  check,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/**
 * The change feed (issue 30.1, decision 056): one row per published change, written by database
 * triggers on `estimate_versions`, `bv_specifications`, `references` and `analytes` in the writer's
 * own transaction (migration 0007). `cursor` is given at commit time, under a transaction-scoped
 * advisory lock taken by a deferred constraint trigger, so cursor order is commit order: a reader
 * that asks for `cursor > n` never finds a smaller cursor committed later. Rows with a null cursor
 * exist only inside their writer's transaction. No foreign keys: a withdrawn record is still news.
 */
export const changeLog = pgTable(
  'change_log',
  {
    /** Order of the writes inside one transaction. */
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    cursor: bigint('cursor', { mode: 'number' }),
    /** When the change was committed (set with the cursor). */
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    entity: text('entity').notNull(),
    entityId: integer('entity_id').notNull(),
    action: text('action').notNull(),
    /** The measurand it belongs to (estimates, datasets, measurands; null for references). */
    analyteId: integer('analyte_id'),
    /** For estimates: which estimate and which of its versions (the previous one is `from`). */
    estimateId: integer('estimate_id'),
    version: integer('version'),
  },
  (t) => [
    uniqueIndex('change_log_cursor_uq').on(t.cursor),
    index('change_log_analyte_cursor_idx').on(t.analyteId, t.cursor),
    index('change_log_unsealed_idx')
      .on(t.id)
      .where(sql`${t.cursor} is null`),
    check('change_log_entity_ck', sql`${t.entity} in ('estimate', 'dataset', 'reference', 'measurand')`),
    check('change_log_action_ck', sql`${t.action} in ('created', 'changed', 'withdrawn')`),
  ],
);
