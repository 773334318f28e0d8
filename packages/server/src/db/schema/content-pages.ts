/** The editable content pages. */
import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import { stamps, version } from './columns.js';

export const contentPages = pgTable('content_pages', {
  id: integer('id').primaryKey(),
  slug: text('slug').notNull().unique(),
  title: text('title').notNull(),
  markdown: text('markdown').notNull(),
  ...version,
  ...stamps,
});
