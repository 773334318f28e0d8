/** The kept test menus (decision 064). */
import { sql } from 'drizzle-orm';
import { check, doublePrecision, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { stamps, version } from './columns.js';
import { users } from './users.js';

/**
 * A laboratory's test menu kept to open again (issue 32.4, decision 064): its link's unguessable id,
 * its owner when a signed-in user kept it (with an optional name), the lines as resolved, and the
 * values the sheet showed when it was kept (`kept_values`, compared with today's on opening), and
 * the population it was judged for (`population`, decision 101: the facet selection; null = the
 * global estimate).
 * A menu without an owner not opened for 13 months is swept.
 */
export const menus = pgTable(
  'menus',
  {
    /** 128 random bits, base64url (22 characters): the link is the key. */
    id: text('id').primaryKey(),
    ownerId: integer('owner_id').references(() => users.id, { onDelete: 'cascade' }),
    name: text('name'),
    level: text('level').notNull(),
    probability: doublePrecision('probability').notNull(),
    testCount: integer('test_count').notNull(),
    lines: jsonb('lines').$type<unknown[]>().notNull(),
    keptValues: jsonb('kept_values').$type<unknown[]>().notNull(),
    /** The facet selection the menu is judged for (`{"sex": ["males"]}`, normalised); null: global. */
    population: jsonb('population').$type<Record<string, string[]>>(),
    keptAt: timestamp('kept_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    openedAt: timestamp('opened_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    ...version,
    ...stamps,
  },
  (t) => [
    index('menus_owner_idx').on(t.ownerId, t.updatedAt),
    index('menus_link_opened_idx')
      .on(t.openedAt)
      .where(sql`${t.ownerId} is null`),
    check('menus_test_count_ck', sql`${t.testCount} between 1 and 1000`),
    check('menus_level_ck', sql`${t.level} in ('optimal', 'desirable', 'minimum')`),
    check(
      'menus_name_ck',
      sql`${t.name} is null or (length(${t.name}) between 1 and 200 and ${t.ownerId} is not null)`,
    ),
    check('menus_id_ck', sql`length(${t.id}) >= 22`),
  ],
);
