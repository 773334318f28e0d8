/** The measurands (`analytes`). */
import { sql } from 'drizzle-orm';
import { boolean, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { stamps, version } from './columns.js';

export const analytes = pgTable(
  'analytes',
  {
    id: serial('id').primaryKey(),
    displayName: text('display_name').notNull(),
    fullName: text('full_name'),
    alternateNames: text('alternate_names')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    loinc: text('loinc'),
    npu: text('npu'),
    snomedCt: text('snomed_ct'),
    isDefault: boolean('default').notNull().default(false),
    displayData: boolean('display_data').notNull().default(true),
    isDemo: boolean('is_demo').notNull().default(false),
    ...version,
    ...stamps,
  },
  (t) => [uniqueIndex('analytes_display_name_uq').on(sql`lower(${t.displayName})`)],
);
