/** The references and their article PDFs. */
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { bytea, stamps, version } from './columns.js';

export const references = pgTable(
  'references',
  {
    id: serial('id').primaryKey(),
    title: text('title').notNull(),
    author: text('author'),
    journal: text('journal'),
    volume: integer('volume'),
    pages: text('pages'),
    yearOfPublication: integer('year_of_publication'),
    pubmedLink: text('pubmed_link'),
    doi: text('doi'),
    link: text('link'),
    linkToSpanishDatabase: integer('link_to_spanish_database').notNull().default(0),
    articleUrl: text('article_url'),
    articleFileName: text('article_file_name'),
    articleFileKey: text('article_file_key'),
    articleFileType: text('article_file_type'),
    isDemo: boolean('is_demo').notNull().default(false),
    ...version,
    ...stamps,
  },
  (t) => [
    uniqueIndex('references_doi_uq')
      .on(sql`lower(${t.doi})`)
      .where(sql`${t.doi} is not null`),
    index('references_title_idx').on(t.title),
    check(
      'references_year_ck',
      sql`${t.yearOfPublication} is null or ${t.yearOfPublication} between 1800 and 2200`,
    ),
    check('references_volume_ck', sql`${t.volume} is null or ${t.volume} >= 0`),
    check('references_spanish_ck', sql`${t.linkToSpanishDatabase} >= 0`),
  ],
);

/**
 * The article PDF of a reference, kept in the database so a backup of the database is a backup of
 * everything (one file per reference; replaced on a new upload, gone with the reference).
 */
export const referenceFiles = pgTable(
  'reference_files',
  {
    referenceId: integer('reference_id')
      .primaryKey()
      .references(() => references.id, { onDelete: 'cascade' }),
    bytes: bytea('bytes').notNull(),
    contentType: text('content_type').notNull(),
    fileName: text('file_name').notNull(),
    size: integer('size').notNull(),
    sha256: text('sha256').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [check('reference_files_size_ck', sql`${t.size} > 0 and ${t.size} = octet_length(${t.bytes})`)],
);
