/** The codes laboratory systems name a measurand by (issue 45.1). */
import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { analytes } from './analytes.js';
import { matrices } from './lookups.js';

/**
 * A code of a measurand in one system — LOINC (`http://loinc.org`), NPU (`http://npu-terminology.org`)
 * or SNOMED CT (`http://snomed.info/sct`, concept ids only, as its licence asks) — for a matrix and a
 * unit scale (UCUM) when the code names them: HbA1c in % and in mmol/mol are two codes for two
 * numbers, never merged. A code names one measurand (unique per system). Data curators edit, with
 * the source that states it.
 */
export const measurandCodes = pgTable(
  'measurand_codes',
  {
    id: serial('id').primaryKey(),
    analyteId: integer('analyte_id')
      .notNull()
      .references(() => analytes.id, { onDelete: 'cascade' }),
    system: text('system').notNull(),
    code: text('code').notNull(),
    /** The code system's own name for it (LOINC's long common name…); null when not recorded. */
    display: text('display'),
    /** The matrix the code names; null when it names none (or every one). */
    matrixId: integer('matrix_id').references(() => matrices.id, { onDelete: 'set null' }),
    /** The unit scale the code's numbers are in (UCUM); null when the code names none. */
    ucumUnit: text('ucum_unit'),
    /** Where the code is stated (a published crosswalk, a guide, a catalogue); null for a curator's own. */
    source: text('source'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('measurand_codes_system_code_uq').on(t.system, t.code),
    index('measurand_codes_analyte_idx').on(t.analyteId),
  ],
);
