import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileCache } from './file-cache.js';

let dir: string;
let cache: FileCache;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bvdb-file-cache-test-'));
  cache = new FileCache(dir);
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const keyOf = (group: string, bytes: Buffer) => ({
  group,
  sha256: createHash('sha256').update(bytes).digest('hex'),
  size: bytes.length,
});

/** A source that counts how often it is read, in 64 KiB pieces. */
function source(bytes: Buffer) {
  const counter = { reads: 0 };
  const read = async function* () {
    counter.reads++;
    for (let i = 0; i < bytes.length; i += 65536) {
      await new Promise((r) => setImmediate(r));
      yield bytes.subarray(i, i + 65536);
    }
  };
  return { read, counter };
}

async function readAll(handle: Awaited<ReturnType<FileCache['open']>>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of handle.createReadStream()) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

describe('FileCache', () => {
  it('writes a copy once, whoever asks at the same time, and serves it afterwards', async () => {
    const bytes = randomBytes(300_000);
    const { read, counter } = source(bytes);
    const handles = await Promise.all([1, 2, 3].map(() => cache.open(keyOf('reference-1', bytes), read)));
    for (const h of handles) expect((await readAll(h)).equals(bytes)).toBe(true);
    expect((await readAll(await cache.open(keyOf('reference-1', bytes), read))).equals(bytes)).toBe(true);
    expect(counter.reads).toBe(1);
    expect(fs.readdirSync(dir)).toEqual([`reference-1-${keyOf('x', bytes).sha256}-300000`]);
  });

  it('refuses bytes that do not match the key and leaves no copy or temporary file', async () => {
    const bytes = randomBytes(1000);
    const other = randomBytes(1000);
    await expect(cache.open(keyOf('reference-2', bytes), source(other).read)).rejects.toThrow(/do not match/);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('a gzip copy is checked against the hash of what it decompresses to', async () => {
    const plain = Buffer.from('dataset,value\n'.repeat(20000));
    const gzip = zlib.gzipSync(plain);
    const key = { ...keyOf('release-gz-1-0', plain), size: gzip.length, encoding: 'gzip' as const };
    const handle = await cache.open(key, source(gzip).read);
    expect((await readAll(handle)).equals(gzip)).toBe(true);
    await handle.close();
    // A gzip stream of other content, or no gzip stream at all, is refused and leaves nothing.
    const other = zlib.gzipSync(Buffer.from('dataset,value\n'.repeat(19999)));
    const wrong = { ...keyOf('release-gz-2-0', plain), size: other.length, encoding: 'gzip' as const };
    await expect(cache.open(wrong, source(other).read)).rejects.toThrow(/do not match/);
    const notGzip = { ...keyOf('release-gz-3-0', plain), size: plain.length, encoding: 'gzip' as const };
    await expect(cache.open(notGzip, source(plain).read)).rejects.toThrow();
    expect(fs.readdirSync(dir).sort()).toEqual([`release-gz-1-0-${key.sha256}-${gzip.length}`]);
  });

  it('keeps one version per group and forgets a group without touching the others', async () => {
    const [v1, v2, other] = [randomBytes(100), randomBytes(100), randomBytes(100)];
    await (await cache.open(keyOf('reference-3', v1), source(v1).read)).close();
    await (await cache.open(keyOf('reference-33', other), source(other).read)).close();
    // A handle open on the old version still reads it after the new version replaced it.
    const old = await cache.open(keyOf('reference-3', v1), source(v1).read);
    await (await cache.open(keyOf('reference-3', v2), source(v2).read)).close();
    expect((await readAll(old)).equals(v1)).toBe(true);
    expect(fs.readdirSync(dir).sort()).toEqual(
      [`reference-3-${keyOf('', v2).sha256}-100`, `reference-33-${keyOf('', other).sha256}-100`].sort(),
    );
    await cache.forget('reference-3');
    expect(fs.readdirSync(dir)).toEqual([`reference-33-${keyOf('', other).sha256}-100`]);
  });

  it('writes a new copy when the one on disk is cut short', async () => {
    const bytes = randomBytes(5000);
    const { read, counter } = source(bytes);
    await (await cache.open(keyOf('reference-4', bytes), read)).close();
    const [name] = fs.readdirSync(dir);
    fs.truncateSync(path.join(dir, name!), 10);
    expect((await readAll(await cache.open(keyOf('reference-4', bytes), read))).equals(bytes)).toBe(true);
    expect(counter.reads).toBe(2);
  });

  it('with an in-memory database uses a private temporary folder, removed on close', async () => {
    const temporary = FileCache.forConfig({ DATA_DIR: 'memory://', dataDir: '/nonexistent' });
    expect(temporary.dir.startsWith(os.tmpdir())).toBe(true);
    expect(fs.existsSync(temporary.dir)).toBe(true);
    await temporary.close();
    expect(fs.existsSync(temporary.dir)).toBe(false);
    expect(FileCache.forConfig({ DATA_DIR: './data', dataDir: '/srv/bvdb/data' }).dir).toBe(
      '/srv/bvdb/data/file-cache',
    );
  });
});
