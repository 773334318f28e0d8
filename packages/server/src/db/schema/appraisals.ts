/** The appraisal rounds of a dataset and the assessors’ appraisals in them (decision 008). */
import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { version } from './columns.js';
import { bvSpecifications } from './datasets.js';
import { users } from './users.js';

/**
 * One appraisal round of a dataset (decision 008): two independent assessors (slots A and B), a third
 * on disagreement. At most one round per dataset is open (state other than `final`).
 */
export const appraisalRounds = pgTable(
  'appraisal_rounds',
  {
    id: serial('id').primaryKey(),
    datasetId: integer('dataset_id')
      .notNull()
      .references(() => bvSpecifications.id, { onDelete: 'cascade' }),
    state: text('state').notNull().default('unassigned'),
    openedBy: integer('opened_by').references(() => users.id, { onDelete: 'set null' }),
    openedAt: timestamp('opened_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** When the round entered its present state (the board's ages). */
    stateChangedAt: timestamp('state_changed_at', { withTimezone: true, mode: 'date' })
      .notNull()
      .defaultNow(),
    finalizedAt: timestamp('finalized_at', { withTimezone: true, mode: 'date' }),
    /** The 14 final grades, once final. */
    finalGrades: jsonb('final_grades').$type<Record<string, string>>(),
    ...version,
  },
  (t) => [
    index('appraisal_rounds_dataset_idx').on(t.datasetId),
    uniqueIndex('appraisal_rounds_open_uq')
      .on(t.datasetId)
      .where(sql`${t.state} <> 'final'`),
    check('appraisal_rounds_state_ck', sql`${t.state} in ('unassigned', 'waiting', 'disputed', 'final')`),
  ],
);

/** One assessor's appraisal in a round: assigned, then submitted once (its grades never change after). */
export const appraisals = pgTable(
  'appraisals',
  {
    id: serial('id').primaryKey(),
    roundId: integer('round_id')
      .notNull()
      .references(() => appraisalRounds.id, { onDelete: 'cascade' }),
    slot: text('slot').notNull(),
    assessorId: integer('assessor_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    assignedBy: integer('assigned_by').references(() => users.id, { onDelete: 'set null' }),
    assignedAt: timestamp('assigned_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** A and B: all 14 items; the third: the disputed items only. */
    grades: jsonb('grades').$type<Record<string, string>>(),
    comments: jsonb('comments').$type<Record<string, string>>(),
    submittedAt: timestamp('submitted_at', { withTimezone: true, mode: 'date' }),
    ...version,
  },
  (t) => [
    uniqueIndex('appraisals_round_slot_uq').on(t.roundId, t.slot),
    index('appraisals_assessor_idx').on(t.assessorId),
    check('appraisals_slot_ck', sql`${t.slot} in ('A', 'B', 'third')`),
  ],
);
