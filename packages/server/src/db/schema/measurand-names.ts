/** The names a measurand also goes by (decision 083). */
import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { analytes } from './analytes.js';

/**
 * Alternative names of a measurand as laboratories write them ("Free T4", "ALP", "Gamma GT"), edited
 * by curators (issue 42.1): data, never code. `match_key` is the name's key (`measurandNameKey` of
 * the domain: case, accents, hyphens, order, spelling, plural, "total", "serum" and a unit aside),
 * unique, so no two measurands share an alternative name and a measurand holds no name twice.
 */
export const measurandNames = pgTable(
  'measurand_names',
  {
    id: serial('id').primaryKey(),
    analyteId: integer('analyte_id')
      .notNull()
      .references(() => analytes.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    matchKey: text('match_key').notNull(),
    /** Where the name is written (a seed row's citation); null for a curator's own. */
    source: text('source'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('measurand_names_match_key_uq').on(t.matchKey),
    index('measurand_names_analyte_idx').on(t.analyteId),
  ],
);
