import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import type { Config } from '../config.js';
import type { ContentEncoding, DataScope, ResponseCache } from './response-cache.js';

/** How a kept file is held: its bytes in memory, or a file on disk (large copies). */
export interface CatalogueCopy {
  size: number;
  bytes?: Buffer;
  path?: string;
}

/** One whole-catalogue answer as built for the data of `stamp`: the plain bytes and their compressed copies. */
export interface CatalogueFile {
  scopes: readonly DataScope[];
  stamp: number;
  etag: string;
  headers: Record<string, string>;
  copies: Partial<Record<ContentEncoding | 'identity', CatalogueCopy>>;
}

/** Copies up to this size stay in memory; larger ones are read from disk for each download. */
export const IN_MEMORY_MAX_BYTES = 8 * 1024 * 1024;

/** Files left by a process that stopped without closing (a crash, `kill -9`) are removed after this. */
const STALE_FILE_MS = 24 * 60 * 60 * 1000;

/**
 * Whole-catalogue answers (the unpaged dataset lists, the headline results, the whole-database files)
 * kept as files, built once per change of the data they read (decision 039). A build takes the
 * answer's text a piece at a time; the compressors (gzip, br) run in libuv's thread pool, so the
 * event loop only hands pieces over. Small copies stay in memory, large ones on disk under
 * `DATA_DIR/file-cache/catalogue` (a private temporary folder with an in-memory database).
 *
 * Concurrent first asks share one build (`ResponseCache.share`); a build that a write overtook is
 * sent to its waiters and then removed, never kept. A kept file is replaced, and its copies on disk
 * removed, when a later ask finds its scopes moved.
 */
export class CatalogueFiles {
  private readonly kept = new Map<string, CatalogueFile>();
  private swept = false;
  /** Builds started (for tests: N concurrent first asks cost one). */
  builds = 0;
  /** Copies up to this size stay in memory (tests set 0 to send every copy from disk). */
  inMemoryMaxBytes = IN_MEMORY_MAX_BYTES;

  constructor(
    private readonly cache: ResponseCache,
    readonly dir: string,
    private readonly temporary = false,
  ) {}

  static forConfig(config: Pick<Config, 'DATA_DIR' | 'dataDir'>, cache: ResponseCache): CatalogueFiles {
    if (config.DATA_DIR.startsWith('memory://')) {
      return new CatalogueFiles(cache, fs.mkdtempSync(path.join(os.tmpdir(), 'bvdb-catalogue-')), true);
    }
    return new CatalogueFiles(cache, path.join(config.dataDir, 'file-cache', 'catalogue'));
  }

  /** The kept file of `key` if its data has not changed since it was built. */
  private fresh(key: string): CatalogueFile | undefined {
    const file = this.kept.get(key);
    if (!file) return undefined;
    if (file.stamp === this.cache.stampOf(file.scopes)) return file;
    this.kept.delete(key);
    void removeCopies(file);
    return undefined;
  }

  /**
   * The file of `key` for the data as it is now, built from `produce` (the answer's text, in pieces)
   * if there is none. `compress: false` keeps no compressed copies (an .xlsx is a zip already).
   */
  async get(
    key: string,
    opts: { scopes: readonly DataScope[]; compress: boolean; headers?: Record<string, string> },
    produce: () => AsyncIterable<string | Buffer>,
    onBuildStarted?: (live: Readable) => void,
  ): Promise<CatalogueFile> {
    const kept = this.fresh(key);
    if (kept) return kept;
    const { value } = await this.cache.share(`file ${key}`, opts.scopes, async (stamp) => {
      const live = onBuildStarted ? new PassThrough() : undefined;
      if (live) onBuildStarted!(live);
      const file = await this.build(key, stamp, opts, produce, live);
      if (stamp === this.cache.stampOf(opts.scopes)) {
        const old = this.kept.get(key);
        if (old) void removeCopies(old);
        this.kept.set(key, file);
      } else {
        // Overtaken by a write: its waiters get it, nobody else; its disk copies go a minute later.
        setTimeout(() => void removeCopies(file), 60_000).unref();
      }
      return file;
    });
    return value;
  }

  /**
   * The kept file of `key`, or, when this ask starts its build, the answer's plain text as it is
   * produced (decision 085: the first ask of a whole catalogue gets its first bytes at once, not
   * after the whole build); the copies are kept as before, for the asks that follow. An ask that
   * finds a build under way waits for its file.
   */
  getOrStream(
    key: string,
    opts: { scopes: readonly DataScope[]; compress: boolean; headers?: Record<string, string> },
    produce: () => AsyncIterable<string | Buffer>,
  ): Promise<{ file: CatalogueFile } | { live: Readable }> {
    const kept = this.fresh(key);
    if (kept) return Promise.resolve({ file: kept });
    return new Promise((resolve, reject) => {
      let streaming = false;
      this.get(key, opts, produce, (live) => {
        streaming = true;
        resolve({ live });
      }).then(
        (file) => resolve({ file }),
        (err: unknown) => {
          // A failed build's stream has been ended with the error; an ask that waited is told.
          if (!streaming) reject(err instanceof Error ? err : new Error(String(err)));
        },
      );
    });
  }

  /** Whether `file` is still the kept file of `key` for the data as it is now. */
  isCurrent(key: string, file: CatalogueFile): boolean {
    return this.kept.get(key) === file && file.stamp === this.cache.stampOf(file.scopes);
  }

  /** Forgets `key` (its copy on disk went missing): the next ask builds it again. */
  forget(key: string): void {
    const file = this.kept.get(key);
    this.kept.delete(key);
    if (file) void removeCopies(file);
  }

  async close(): Promise<void> {
    const files = [...this.kept.values()];
    this.kept.clear();
    await Promise.all(files.map(removeCopies));
    if (this.temporary) await fs.promises.rm(this.dir, { recursive: true, force: true });
  }

  private async build(
    key: string,
    stamp: number,
    opts: { scopes: readonly DataScope[]; compress: boolean; headers?: Record<string, string> },
    produce: () => AsyncIterable<string | Buffer>,
    live?: PassThrough,
  ): Promise<CatalogueFile> {
    this.builds += 1;
    await fs.promises.mkdir(this.dir, { recursive: true });
    if (!this.swept) {
      this.swept = true;
      await this.sweep();
    }
    const base = path.join(
      this.dir,
      `${createHash('sha1').update(key).digest('hex').slice(0, 16)}-${randomBytes(6).toString('hex')}`,
    );
    const paths = { identity: `${base}.raw`, gzip: `${base}.gz`, br: `${base}.br` };
    const encodings: (ContentEncoding | 'identity')[] = opts.compress
      ? ['identity', 'gzip', 'br']
      : ['identity'];
    const hash = createHash('sha1');
    const plain = fs.createWriteStream(paths.identity, { flags: 'wx' });
    const zips = opts.compress
      ? [
          zlib.createGzip({ level: 6 }),
          zlib.createBrotliCompress({ params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } }),
        ]
      : [];
    const sinks: NodeJS.WritableStream[] = [plain, ...zips];
    const done = [
      new Promise<void>((resolve, reject) => {
        plain.on('finish', resolve);
        plain.on('error', reject);
      }),
      ...zips.map((zip, i) =>
        pipeline(zip, fs.createWriteStream(i === 0 ? paths.gzip : paths.br, { flags: 'wx' })),
      ),
    ];
    try {
      for await (const piece of produce()) {
        const bytes = typeof piece === 'string' ? Buffer.from(piece) : piece;
        if (bytes.length === 0) continue;
        hash.update(bytes);
        // The first asker's copy is not waited for: a slow client does not hold the build.
        if (live && !live.destroyed) live.write(bytes);
        await Promise.all(sinks.map((sink) => writeTo(sink, bytes)));
      }
      live?.end();
      for (const sink of sinks) sink.end();
      await Promise.all(done);
    } catch (err) {
      live?.destroy(err instanceof Error ? err : new Error(String(err)));
      for (const sink of [plain, ...zips]) sink.destroy();
      await Promise.allSettled(done);
      await Promise.all(Object.values(paths).map((p) => fs.promises.rm(p, { force: true })));
      throw err;
    }
    const copies: CatalogueFile['copies'] = {};
    for (const encoding of encodings) {
      const file = paths[encoding];
      const { size } = await fs.promises.stat(file);
      if (size <= this.inMemoryMaxBytes) {
        copies[encoding] = { size, bytes: await fs.promises.readFile(file) };
        await fs.promises.rm(file, { force: true });
      } else {
        copies[encoding] = { size, path: file };
      }
    }
    const etag = `W/"c-${hash.digest('base64url').slice(0, 27)}"`;
    return { scopes: opts.scopes, stamp, etag, headers: opts.headers ?? {}, copies };
  }

  /** Files of processes that stopped without closing (their kept files died with them). */
  private async sweep(): Promise<void> {
    const names = await fs.promises.readdir(this.dir).catch(() => [] as string[]);
    const now = Date.now();
    for (const name of names) {
      const full = path.join(this.dir, name);
      const stat = await fs.promises.stat(full).catch(() => undefined);
      if (stat && now - stat.mtimeMs > STALE_FILE_MS) await fs.promises.rm(full, { force: true });
    }
  }
}

/** Writes `bytes`, waiting for the stream to drain if it asks to. */
function writeTo(sink: NodeJS.WritableStream, bytes: Buffer): Promise<void> {
  if (sink.write(bytes)) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onDrain = () => {
      sink.off('error', onError);
      resolve();
    };
    const onError = (err: Error) => {
      sink.off('drain', onDrain);
      reject(err);
    };
    sink.once('drain', onDrain);
    sink.once('error', onError);
  });
}

async function removeCopies(file: CatalogueFile): Promise<void> {
  const onDisk = Object.values(file.copies).flatMap((copy) => (copy?.path ? [copy.path] : []));
  await Promise.all(onDisk.map((p) => fs.promises.rm(p, { force: true }).catch(() => undefined)));
}
