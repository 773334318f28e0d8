import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Config } from '../config.js';

/** What names one version of a stored file: its owner (e.g. `reference-12`), hash and length. */
export interface CachedFileKey {
  group: string;
  /** The SHA-256 of the file's content: with `encoding`, of what the copy decompresses to. */
  sha256: string;
  /** The copy's length in bytes (compressed, with `encoding`). */
  size: number;
  /** `gzip`: the copy is a gzip stream of the content (a release file stored compressed). */
  encoding?: 'gzip';
}

/** A temporary file older than this was left by a process that died while writing it. */
const STALE_TEMP_MS = 60 * 60 * 1000;

/**
 * Derived on-disk copies of files whose source of truth is the database (article PDFs: a backup of
 * the database holds them). Reading a large file out of the embedded database costs the event loop
 * (PGlite answers on the main thread); a copy on disk is sent by the kernel's file reads instead.
 *
 * Content-addressed: a copy is named by its owner, SHA-256 and size, so a replaced file can never be
 * served from an old copy; callers look up the current hash in the database on every request. A copy
 * is written once (concurrent first reads share the write) to a temporary file, checked against the
 * hash and size, then renamed into place, so a reader never sees half a copy.
 */
export class FileCache {
  private readonly filling = new Map<string, Promise<string>>();
  private swept = false;

  constructor(
    readonly dir: string,
    private readonly temporary = false,
  ) {}

  /** The cache of a running server: `DATA_DIR/file-cache`, or a private temporary folder with an in-memory database. */
  static forConfig(config: Pick<Config, 'DATA_DIR' | 'dataDir'>): FileCache {
    if (config.DATA_DIR.startsWith('memory://')) {
      return new FileCache(fs.mkdtempSync(path.join(os.tmpdir(), 'bvdb-file-cache-')), true);
    }
    return new FileCache(path.join(config.dataDir, 'file-cache'));
  }

  /**
   * An open handle on the copy of `key`, written from `read()` first if there is none yet. The
   * handle stays valid if the copy is removed meanwhile (a replacement elsewhere). Rejects if the
   * copy cannot be made (e.g. the bytes read do not match the key, or the disk is full).
   */
  async open(key: CachedFileKey, read: () => AsyncIterable<Buffer>): Promise<FileHandle> {
    const file = this.pathOf(key);
    const existing = await openIfComplete(file, key.size);
    if (existing) return existing;
    let fill = this.filling.get(file);
    if (!fill) {
      fill = this.fill(key, file, read).finally(() => this.filling.delete(file));
      this.filling.set(file, fill);
    }
    await fill;
    const handle = await openIfComplete(file, key.size);
    if (!handle) throw new Error(`The cached copy ${path.basename(file)} went away`);
    return handle;
  }

  /** Removes every copy of `group` (its file was replaced or deleted). Best effort: errors are ignored. */
  async forget(group: string, keep?: string): Promise<void> {
    const prefix = `${checkedGroup(group)}-`;
    const names = await fs.promises.readdir(this.dir).catch(() => [] as string[]);
    await Promise.all(
      names
        .filter((n) => n.startsWith(prefix) && !n.endsWith('.tmp') && n !== keep)
        .map((n) => fs.promises.rm(path.join(this.dir, n), { force: true }).catch(() => undefined)),
    );
  }

  /** Removes the folder if it was a private temporary one. */
  async close(): Promise<void> {
    if (this.temporary) await fs.promises.rm(this.dir, { recursive: true, force: true });
  }

  private pathOf(key: CachedFileKey): string {
    if (!/^[0-9a-f]{64}$/.test(key.sha256) || !Number.isSafeInteger(key.size) || key.size < 0) {
      throw new Error('A cached file needs a hex SHA-256 and a size');
    }
    return path.join(this.dir, `${checkedGroup(key.group)}-${key.sha256}-${key.size}`);
  }

  private async fill(key: CachedFileKey, file: string, read: () => AsyncIterable<Buffer>): Promise<string> {
    await fs.promises.mkdir(this.dir, { recursive: true });
    if (!this.swept) {
      this.swept = true;
      await this.sweepTemporaries();
    }
    const temp = `${file}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
    const hash = createHash('sha256');
    let size = 0;
    const check = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        hash.update(chunk);
        size += chunk.length;
        done(null, chunk);
      },
    });
    try {
      await pipeline(read(), check, fs.createWriteStream(temp, { flags: 'wx' }));
      const sha256 = key.encoding === 'gzip' ? await sha256OfGunzipped(temp) : hash.digest('hex');
      if (size !== key.size || sha256 !== key.sha256) {
        throw new Error(
          `The bytes read for ${path.basename(file)} do not match it (${size} bytes, ${sha256})`,
        );
      }
      await fs.promises.rename(temp, file);
    } catch (err) {
      await fs.promises.rm(temp, { force: true });
      throw err;
    }
    // Older versions of the same file are of no further use.
    await this.forget(key.group, path.basename(file));
    return file;
  }

  /** Temporary files of writers that died mid-way (a crash, `kill -9`). */
  private async sweepTemporaries(): Promise<void> {
    const names = await fs.promises.readdir(this.dir).catch(() => [] as string[]);
    const now = Date.now();
    for (const name of names.filter((n) => n.endsWith('.tmp'))) {
      const full = path.join(this.dir, name);
      const stat = await fs.promises.stat(full).catch(() => undefined);
      if (stat && now - stat.mtimeMs > STALE_TEMP_MS) await fs.promises.rm(full, { force: true });
    }
  }
}

/** The SHA-256 of what a gzip file decompresses to (decompressed in the thread pool, in a stream). */
async function sha256OfGunzipped(file: string): Promise<string> {
  const hash = createHash('sha256');
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      done();
    },
  });
  await pipeline(fs.createReadStream(file), zlib.createGunzip(), sink);
  return hash.digest('hex');
}

/** A group is part of a file name: letters, digits and dashes only. */
function checkedGroup(group: string): string {
  if (!/^[a-z0-9-]+$/.test(group)) throw new Error(`Not a cache group name: ${group}`);
  return group;
}

/** The file opened, if it exists with the expected length (a copy is only ever renamed in whole). */
async function openIfComplete(file: string, size: number): Promise<FileHandle | undefined> {
  let handle: FileHandle;
  try {
    handle = await fs.promises.open(file, 'r');
  } catch {
    return undefined;
  }
  const stat = await handle.stat().catch(() => undefined);
  if (stat?.isFile() && stat.size === size) return handle;
  await handle.close();
  return undefined;
}
