import { and, asc, desc, eq, inArray, like, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { releaseFileChunks, releaseFiles, releaseMailings, releases } from '../../db/schema.js';

export type ReleaseRow = typeof releases.$inferSelect;
export type MailingRow = typeof releaseMailings.$inferSelect;
export type FileInfo = typeof releaseFiles.$inferSelect;

/** The size of a stored piece of a release file (the last one may be shorter). */
export const RELEASE_CHUNK_BYTES = 1024 * 1024;

/** Publishers (a curator, the schedule, another process) take their turn: one release at a time. */
const RELEASE_LOCK = 7305812245437166137n;

export async function lockReleases(tx: DbOrTx): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${RELEASE_LOCK})`);
}

/** A build still running (asked for less than `staleAfterMs` ago: an older one died with its process). */
export async function findRunningBuild(tx: DbOrTx, staleAfterMs: number): Promise<ReleaseRow | undefined> {
  const [row] = await tx
    .select()
    .from(releases)
    .where(
      and(
        eq(releases.status, 'building'),
        sql`${releases.requestedAt} > now() - make_interval(secs => ${staleAfterMs / 1000})`,
      ),
    )
    .limit(1);
  return row;
}

/** Builds asked for longer ago than `staleAfterMs` died with their process: marked failed. */
export async function failStaleBuilds(tx: DbOrTx, staleAfterMs: number): Promise<void> {
  await tx
    .update(releases)
    .set({ status: 'failed', error: 'The process building it stopped before it was published' })
    .where(
      and(
        eq(releases.status, 'building'),
        sql`${releases.requestedAt} <= now() - make_interval(secs => ${staleAfterMs / 1000})`,
      ),
    );
}

/** The latest release asked for that did not fail (published, or still building). */
export async function findLatestRelease(db: DbOrTx): Promise<ReleaseRow | undefined> {
  const [row] = await db
    .select()
    .from(releases)
    .where(sql`${releases.status} <> 'failed'`)
    .orderBy(desc(releases.id))
    .limit(1);
  return row;
}

export async function findLatestPublished(db: DbOrTx): Promise<ReleaseRow | undefined> {
  const [row] = await db
    .select()
    .from(releases)
    .where(eq(releases.status, 'published'))
    .orderBy(desc(releases.cursor), desc(releases.id))
    .limit(1);
  return row;
}

/** The versions already given on a day (`2026-11-27`, `2026-11-27.2`…), failed builds included. */
export async function versionsOfDay(tx: DbOrTx, day: string): Promise<string[]> {
  const rows = await tx
    .select({ version: releases.version })
    .from(releases)
    .where(or(eq(releases.version, day), like(releases.version, `${day}.%`)));
  return rows.map((r) => r.version);
}

export async function insertRelease(
  tx: DbOrTx,
  values: Pick<ReleaseRow, 'version' | 'cause' | 'cursor' | 'previousCursor'>,
): Promise<ReleaseRow> {
  const [row] = await tx.insert(releases).values(values).returning();
  return row!;
}

export async function findRelease(db: DbOrTx, id: number): Promise<ReleaseRow | undefined> {
  const [row] = await db.select().from(releases).where(eq(releases.id, id));
  return row;
}

/**
 * A file kept compressed is stored as `<name>.gz` (no file of a release is named so): the gzip
 * stream, in pieces as any other. Its `release_files` row keeps the file's own size and SHA-256.
 */
export const GZIP_SUFFIX = '.gz';

/** What is stored of a file: its bytes as downloaded, or gzip-compressed (`gzip`, when smaller). */
export interface StoredFile {
  name: string;
  contentType: string;
  bytes: Buffer;
  sha256: string;
  gzip?: Buffer;
}

/** Stores the files and makes the release public, in the caller's transaction. */
export async function publishRelease(
  tx: DbOrTx,
  id: number,
  notes: string,
  files: StoredFile[],
): Promise<ReleaseRow> {
  // A megabyte per statement, the event loop free between them: a release's JSON is tens of
  // megabytes at 100× the demo data, and the embedded database writes on this thread.
  for (const [position, f] of files.entries()) {
    const { bytes, gzip, ...info } = f;
    await tx.insert(releaseFiles).values({ releaseId: id, position, ...info, size: bytes.length });
    const stored = gzip ?? bytes;
    const name = gzip ? `${f.name}${GZIP_SUFFIX}` : f.name;
    for (let seq = 0; seq * RELEASE_CHUNK_BYTES < stored.length || seq === 0; seq++) {
      const piece = stored.subarray(seq * RELEASE_CHUNK_BYTES, (seq + 1) * RELEASE_CHUNK_BYTES);
      // Sent as base64 text and decoded by the database: the embedded database's own bytea
      // parameter encoding builds its hex text a byte at a time in JavaScript (1.4 s a megabyte,
      // on this thread); Buffer's base64 is native. pg takes the same statement.
      await tx
        .insert(releaseFileChunks)
        .values({ releaseId: id, name, seq, bytes: sql`decode(${piece.toString('base64')}, 'base64')` });
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  const [row] = await tx
    .update(releases)
    .set({ status: 'published', notes, publishedAt: new Date(), error: null })
    .where(eq(releases.id, id))
    .returning();
  return row!;
}

/**
 * How a file is stored: `gzip` (as `<name>.gz`) or `identity`, and how many bytes are stored
 * (undefined if none are: the file is gone).
 */
export async function findStoredForm(
  db: DbOrTx,
  releaseId: number,
  name: string,
): Promise<{ encoding: 'gzip' | 'identity'; storedName: string; storedSize: number } | undefined> {
  const gz = `${name}${GZIP_SUFFIX}`;
  // octet_length reads a stored value's header, not its bytes.
  const rows = await db
    .select({
      name: releaseFileChunks.name,
      size: sql<number>`sum(octet_length(${releaseFileChunks.bytes}))::int`,
    })
    .from(releaseFileChunks)
    .where(and(eq(releaseFileChunks.releaseId, releaseId), inArray(releaseFileChunks.name, [name, gz])))
    .groupBy(releaseFileChunks.name);
  const row = rows.find((r) => r.name === gz) ?? rows[0];
  if (!row) return undefined;
  return {
    encoding: row.name === gz ? 'gzip' : 'identity',
    storedName: row.name,
    storedSize: Number(row.size),
  };
}

export async function failRelease(db: DbOrTx, id: number, error: string): Promise<void> {
  await db
    .update(releases)
    .set({ status: 'failed', error: error.slice(0, 500) })
    .where(and(eq(releases.id, id), eq(releases.status, 'building')));
}

export async function listPublished(db: DbOrTx, version?: string): Promise<ReleaseRow[]> {
  return db
    .select()
    .from(releases)
    .where(and(eq(releases.status, 'published'), version ? eq(releases.version, version) : undefined))
    .orderBy(desc(releases.publishedAt), desc(releases.id));
}

/** The files of these releases, without their bytes, in release and manifest order. */
export async function listFileInfo(db: DbOrTx, releaseIds: number[]): Promise<FileInfo[]> {
  if (releaseIds.length === 0) return [];
  return db
    .select({
      releaseId: releaseFiles.releaseId,
      position: releaseFiles.position,
      name: releaseFiles.name,
      contentType: releaseFiles.contentType,
      size: releaseFiles.size,
      sha256: releaseFiles.sha256,
    })
    .from(releaseFiles)
    .where(inArray(releaseFiles.releaseId, releaseIds))
    .orderBy(asc(releaseFiles.releaseId), asc(releaseFiles.position));
}

export async function findFileInfo(db: DbOrTx, version: string, name: string): Promise<FileInfo | undefined> {
  const [row] = await db
    .select({
      releaseId: releaseFiles.releaseId,
      position: releaseFiles.position,
      name: releaseFiles.name,
      contentType: releaseFiles.contentType,
      size: releaseFiles.size,
      sha256: releaseFiles.sha256,
    })
    .from(releaseFiles)
    .innerJoin(releases, eq(releases.id, releaseFiles.releaseId))
    .where(and(eq(releases.version, version), eq(releases.status, 'published'), eq(releaseFiles.name, name)));
  return row;
}

/** Piece `seq` of a stored file (base64 through the driver: PGlite and pg answer it alike). */
export async function readFileChunk(
  db: DbOrTx,
  releaseId: number,
  name: string,
  seq: number,
): Promise<Buffer | undefined> {
  const [row] = await db
    .select({ chunk: sql<string>`encode(${releaseFileChunks.bytes}, 'base64')` })
    .from(releaseFileChunks)
    .where(
      and(
        eq(releaseFileChunks.releaseId, releaseId),
        eq(releaseFileChunks.name, name),
        eq(releaseFileChunks.seq, seq),
      ),
    );
  return row ? Buffer.from(row.chunk, 'base64') : undefined;
}

export async function saveMailing(db: DbOrTx, row: typeof releaseMailings.$inferInsert): Promise<void> {
  await db.insert(releaseMailings).values(row).onConflictDoNothing();
}

/** The latest builds (any status) with their mailing, newest first. */
export async function listBuilds(
  db: DbOrTx,
  limit: number,
): Promise<{ release: ReleaseRow; mailing: MailingRow | null }[]> {
  return db
    .select({ release: releases, mailing: releaseMailings })
    .from(releases)
    .leftJoin(releaseMailings, eq(releaseMailings.releaseId, releases.id))
    .orderBy(desc(releases.id))
    .limit(limit);
}
