import { PassThrough, pipeline, Readable } from 'node:stream';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Release, ReleaseBuild } from '@bvdb/contract';
import { AppError, notFound } from '../../lib/app-error.js';
import { exportNotice } from '../../lib/export-notice.js';
import type { FileCache } from '../../lib/file-cache.js';
import type { ServiceDeps } from '../../lib/service-deps.js';
import { buildReleaseNotes, hasChangesAfter, latestChangeCursor } from '../changes/index.js';
import { announceRelease } from './release-mail.js';
import { buildReleaseFiles, type ReleaseFileBytes } from './release-files.js';
import { presentBuild, presentRelease } from './releases.presenter.js';
import * as repo from './releases.repository.js';

export type ReleaseCause = 'curator' | 'admin' | 'schedule';

/** A build asked for longer ago than this died with its process: it no longer blocks a new one. */
const STALE_BUILD_MS = 30 * 60 * 1000;
const gzip = promisify(zlib.gzip);

/** Files at least this large are stored gzip-compressed when that saves a tenth or more. */
const COMPRESS_FROM_BYTES = 64 * 1024;

/**
 * The form a file is stored in: with its gzip stream when that is worth it (the JSON, the CSV and
 * the notes are text; the xlsx is a zip already). Compressed in the thread pool, not on the event
 * loop; zlib at a fixed level gives the same stream for the same bytes, and what a release is
 * checked by (its SHA-256s) is the files' own bytes whatever the stored form.
 */
export async function storedForm(f: ReleaseFileBytes): Promise<repo.StoredFile> {
  if (f.bytes.length < COMPRESS_FROM_BYTES) return f;
  const packed = await gzip(f.bytes, { level: 6 });
  return packed.length <= f.bytes.length * 0.9 ? { ...f, gzip: packed } : f;
}

/** A file's body as sent: `gzip` when the client takes it and the file is stored so. */
export interface FileBody {
  body: Readable;
  encoding: 'gzip' | null;
  /** The body's length in bytes (Content-Length). */
  length: number;
}

/** `2026-11-27` for the first release of a day, then `2026-11-27.2`, `.3`… (decision 058). */
export function nextVersion(day: string, taken: string[]): string {
  if (taken.length === 0) return day;
  const suffixes = taken.map((v) => (v === day ? 1 : Number(v.slice(day.length + 1))));
  return `${day}.${Math.max(...suffixes) + 1}`;
}

/** The release's day at 00:00 UTC: every date inside its files. */
export const releaseDate = (version: string) => new Date(`${version.slice(0, 10)}T00:00:00.000Z`);

/**
 * Releases of the published database (issue 30.2, decision 058). `request` records the release
 * (its version and the change-feed cursor it covers) and starts its build in the background; the
 * build reads the published data, makes the files (spreadsheets in the export worker thread),
 * stores them with the release in one transaction, then mails the notes to the mailing list.
 */
export class ReleaseService {
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly deps: Pick<ServiceDeps, 'db' | 'log' | 'config'>,
    private readonly copies: FileCache,
  ) {}

  /**
   * Asks for a release now. A curator's request is refused (409) while another build runs; the
   * monthly schedule's (`schedule`) is made only when there was a release before, none yet this
   * month, and the feed has changed since the previous one; it answers null otherwise.
   */
  async request(cause: ReleaseCause, now = new Date()): Promise<ReleaseBuild | null> {
    // No public data is written (nothing cached to invalidate): a plain transaction, so the
    // schedule's process (ROLE=worker, no read cache) runs the same code.
    const row = await this.deps.db.transaction(async (tx) => {
      await repo.lockReleases(tx);
      await repo.failStaleBuilds(tx, STALE_BUILD_MS);
      const running = await repo.findRunningBuild(tx, STALE_BUILD_MS);
      if (running) {
        if (cause === 'schedule') return null;
        throw new AppError(
          'conflict',
          `Release ${running.version} is being built; try again when it is published`,
        );
      }
      const previous = await repo.findLatestPublished(tx);
      const previousCursor = previous?.cursor ?? 0;
      if (cause === 'schedule') {
        // Never the first release: a site starts releasing when a curator publishes one.
        const latest = await repo.findLatestRelease(tx);
        const month = now.toISOString().slice(0, 7);
        if (!latest || latest.version.slice(0, 7) >= month) return null;
        if (!(await hasChangesAfter(tx, previousCursor))) return null;
      }
      const day = now.toISOString().slice(0, 10);
      const version = nextVersion(day, await repo.versionsOfDay(tx, day));
      const cursor = Math.max(await latestChangeCursor(tx), previousCursor);
      return repo.insertRelease(tx, { version, cause, cursor, previousCursor });
    });
    if (!row) return null;
    const build = this.build(row).finally(() => this.running.delete(build));
    this.running.add(build);
    return presentBuild(row, null);
  }

  /** Resolves when this process builds no release (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all(this.running);
  }

  /** Builds, stores and announces one requested release; a failure marks it failed, with why. */
  private async build(row: repo.ReleaseRow): Promise<void> {
    const { db, log, config } = this.deps;
    const started = performance.now();
    let published: repo.ReleaseRow;
    const timings: Record<string, number> = {};
    try {
      const previous = await repo.findLatestPublished(db);
      const date = releaseDate(row.version);
      const notes = await buildReleaseNotes(
        db,
        { version: row.version, date: row.version.slice(0, 10), previousVersion: previous?.version ?? null },
        row.previousCursor,
        row.cursor,
      );
      timings.notes = Math.round(performance.now() - started);
      const files = await buildReleaseFiles(
        db,
        {
          version: row.version,
          date,
          notes,
          notice: exportNotice(config),
          siteUrl: config.PUBLIC_URL,
        },
        timings,
      );
      const compressing = performance.now();
      const stored = await Promise.all(files.map(storedForm));
      timings.compress = Math.round(performance.now() - compressing);
      const storing = performance.now();
      published = await db.transaction((tx) => repo.publishRelease(tx, row.id, notes, stored));
      timings.store = Math.round(performance.now() - storing);
      log.info(
        { version: row.version, ms: Math.round(performance.now() - started), files: files.length, timings },
        'release published',
      );
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      log.error({ version: row.version, err: message }, 'release build failed');
      await repo.failRelease(db, row.id, message).catch(() => undefined);
      return;
    }
    await announceRelease(this.deps, published).catch((err: unknown) =>
      log.error({ version: row.version, err: (err as Error).message }, 'release notes not mailed'),
    );
  }

  /** Published releases, newest first; one when `version` is given (404 if none). */
  async list(version?: string): Promise<Release[]> {
    const rows = await repo.listPublished(this.deps.db, version);
    if (version && rows.length === 0) throw notFound(`Release ${version}`);
    const files = await repo.listFileInfo(
      this.deps.db,
      rows.map((r) => r.id),
    );
    return rows.map((r) =>
      presentRelease(
        r,
        files.filter((f) => f.releaseId === r.id),
      ),
    );
  }

  /** The latest builds with their status and mailing (curators and administrators). */
  async listBuilds(): Promise<ReleaseBuild[]> {
    return (await repo.listBuilds(this.deps.db, 20)).map((b) => presentBuild(b.release, b.mailing));
  }

  /** A published file's description (404 if there is none by that name). */
  async describeFile(version: string, name: string): Promise<repo.FileInfo> {
    const file = await repo.findFileInfo(this.deps.db, version, name);
    if (!file) throw notFound(`File ${name} of release ${version}`);
    return file;
  }

  /**
   * A file's body from its copy on disk (made on the first download), from the database otherwise.
   * A file stored compressed is sent as its gzip stream to a client that takes gzip, and
   * decompressed on the way (in the thread pool) to one that does not.
   */
  async read(file: repo.FileInfo, takesGzip: boolean): Promise<FileBody> {
    const { db } = this.deps;
    const form = await repo.findStoredForm(db, file.releaseId, file.name);
    if (!form) throw new Error(`Release file ${file.name} is gone`);
    async function* fromDatabase() {
      for (let seq = 0; seq * repo.RELEASE_CHUNK_BYTES < form!.storedSize; seq++) {
        const chunk = await repo.readFileChunk(db, file.releaseId, form!.storedName, seq);
        if (!chunk) throw new Error(`Release file ${file.name} is gone`);
        yield chunk;
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    let stored: Readable;
    try {
      const gz = form.encoding === 'gzip';
      const handle = await this.copies.open(
        {
          group: gz
            ? `release-gz-${file.releaseId}-${file.position}`
            : `release-${file.releaseId}-${file.position}`,
          sha256: file.sha256,
          size: form.storedSize,
          ...(gz ? { encoding: 'gzip' as const } : {}),
        },
        fromDatabase,
      );
      stored = handle.createReadStream({ highWaterMark: 64 * 1024 });
    } catch (err) {
      this.deps.log.warn({ err, file: file.name }, 'release file served from the database: no copy on disk');
      stored = Readable.from(fromDatabase());
    }
    if (form.encoding === 'identity') return { body: stored, encoding: null, length: file.size };
    if (takesGzip) return { body: stored, encoding: 'gzip', length: form.storedSize };
    const plain = new PassThrough();
    pipeline(stored, zlib.createGunzip(), plain, () => undefined);
    return { body: plain, encoding: null, length: file.size };
  }
}
