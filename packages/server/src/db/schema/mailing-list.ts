/** The mailing list. */
import { sql } from 'drizzle-orm';
import { pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { stamps } from './columns.js';

export const mailingListMembers = pgTable(
  'mailing_list_members',
  {
    id: serial('id').primaryKey(),
    email: text('email').notNull(),
    name: text('name'),
    syncedAt: timestamp('synced_at', { withTimezone: true, mode: 'date' }),
    ...stamps,
  },
  (t) => [uniqueIndex('mailing_email_uq').on(sql`lower(${t.email})`)],
);
