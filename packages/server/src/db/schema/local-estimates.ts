/** Laboratories' own estimates from routine data (issue 46.4, decision 095). */
import { doublePrecision, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { analytes } from './analytes.js';
import { matrices } from './lookups.js';
import { users } from './users.js';

/**
 * The summary of an indirect run a curator chose to keep (evidence class "routine data (indirect)"):
 * counts, CVs and the options, never a patient's row. Shown apart on the measurand page and read by
 * nothing that computes the meta-analysis.
 */
export const localEstimates = pgTable(
  'local_estimates',
  {
    id: serial('id').primaryKey(),
    analyteId: integer('analyte_id')
      .notNull()
      .references(() => analytes.id, { onDelete: 'cascade' }),
    matrixId: integer('matrix_id').references(() => matrices.id, { onDelete: 'set null' }),
    laboratory: text('laboratory').notNull(),
    method: text('method').notNull(),
    cvTotal: doublePrecision('cv_total').notNull(),
    cva: doublePrecision('cva').notNull(),
    cvi: doublePrecision('cvi').notNull(),
    cviLower: doublePrecision('cvi_lower'),
    cviUpper: doublePrecision('cvi_upper'),
    pairs: integer('pairs').notNull(),
    patients: integer('patients').notNull(),
    results: integer('results').notNull(),
    minDays: integer('min_days').notNull(),
    maxDays: integer('max_days').notNull(),
    pairsPerPatient: text('pairs_per_patient').notNull(),
    period: text('period'),
    note: text('note'),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    // A curator's edit or delete names the version it saw (decision 100, migration 0016).
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    version: integer('version').notNull().default(1),
  },
  (t) => [index('local_estimates_analyte_idx').on(t.analyteId)],
);
