/** The releases of the published database, their files' bytes and their mailings (decision 058). */
import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { bytea } from './columns.js';

/**
 * Releases of the published database (issue 30.2, decision 058): a frozen, numbered set of files.
 * `cursor` is the change feed's position the release covers (every change up to it is in its
 * files and notes); the next release's notes are the changes after it. A row is written as
 * `building` when a curator (or the monthly schedule) asks, and becomes `published` in the same
 * transaction that stores its files: a published release never changes.
 */
export const releases = pgTable(
  'releases',
  {
    id: serial('id').primaryKey(),
    /** `2026-11-27`, or `2026-11-27.2` for the second release of that day (UTC). */
    version: text('version').notNull(),
    status: text('status').notNull().default('building'),
    /** `curator`, `admin` (who asked, by role: no name) or `schedule`. */
    cause: text('cause').notNull(),
    /** The feed's cursor this release covers, and the previous release's (its notes are between). */
    cursor: bigint('cursor', { mode: 'number' }).notNull(),
    previousCursor: bigint('previous_cursor', { mode: 'number' }).notNull(),
    notes: text('notes').notNull().default(''),
    error: text('error'),
    requestedAt: timestamp('requested_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    publishedAt: timestamp('published_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    uniqueIndex('releases_version_uq').on(t.version),
    check('releases_status_ck', sql`${t.status} in ('building', 'published', 'failed')`),
  ],
);

/** The files of a published release: what each is; the bytes are in release_file_chunks. */
export const releaseFiles = pgTable(
  'release_files',
  {
    releaseId: integer('release_id')
      .notNull()
      .references(() => releases.id, { onDelete: 'cascade' }),
    /** Order in the listing and the manifest. */
    position: integer('position').notNull(),
    name: text('name').notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    sha256: text('sha256').notNull(),
  },
  (t) => [primaryKey({ columns: [t.releaseId, t.name] })],
);

/**
 * A release file's bytes in pieces of at most a megabyte (`seq` from 0): written one statement at
 * a time with the event loop free between them, so storing a 50 MB file never holds the embedded
 * database's thread for seconds, and read back a piece per query for a download.
 */
export const releaseFileChunks = pgTable(
  'release_file_chunks',
  {
    releaseId: integer('release_id')
      .notNull()
      .references(() => releases.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    seq: integer('seq').notNull(),
    bytes: bytea('bytes').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.releaseId, t.name, t.seq] }),
    check('release_file_chunks_seq_ck', sql`${t.seq} >= 0`),
  ],
);

/**
 * The release notes sent to the mailing list (issue 30.4): kept whatever happened, so an
 * administrator sees what was sent, or what would have been when Mailgun is not configured.
 */
export const releaseMailings = pgTable('release_mailings', {
  releaseId: integer('release_id')
    .primaryKey()
    .references(() => releases.id, { onDelete: 'cascade' }),
  subject: text('subject').notNull(),
  text: text('text').notNull(),
  recipients: integer('recipients').notNull(),
  sent: integer('sent').notNull().default(0),
  failed: integer('failed').notNull().default(0),
  /** `sent` (through Mailgun), `stored` (no Mailgun configured: only kept here). */
  delivery: text('delivery').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});
