import { randomBytes } from 'node:crypto';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { releases } from '../../db/schema.js';
import { createTestApp, type TestContext } from '../../test/test-app.js';
import * as repo from './releases.repository.js';

// On PGlite, and on PostgreSQL when TEST_DATABASE_URL names a server.
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({ demo: false });
}, 60_000);
afterAll(async () => {
  await ctx?.close();
});

describe('release files stored in pieces (decision 058)', () => {
  it('a file of several megabytes is stored a megabyte a row and read back byte for byte', async () => {
    const big = randomBytes(Math.round(2.5 * repo.RELEASE_CHUNK_BYTES));
    const small = Buffer.from('sha256  file\n');
    const empty = Buffer.alloc(0);
    const [row] = await ctx.database.db
      .insert(releases)
      .values({ version: '2026-01-02', cause: 'curator', cursor: 0, previousCursor: 0 })
      .returning();
    const files = [
      { name: 'big.json', contentType: 'application/json', bytes: big, sha256: 'a' },
      { name: 'SHA256SUMS', contentType: 'text/plain', bytes: small, sha256: 'b' },
      { name: 'empty.txt', contentType: 'text/plain', bytes: empty, sha256: 'c' },
    ];
    await ctx.database.db.transaction((tx) => repo.publishRelease(tx, row!.id, 'notes', files));

    const pieces = await ctx.database.execute(
      `select name, count(*)::int as n, max(octet_length(bytes))::int as largest from release_file_chunks where release_id = ${row!.id} group by name order by name`,
    );
    expect(pieces.rows).toEqual([
      { name: 'SHA256SUMS', n: 1, largest: small.length },
      { name: 'big.json', n: 3, largest: repo.RELEASE_CHUNK_BYTES },
      { name: 'empty.txt', n: 1, largest: 0 },
    ]);
    for (const f of files) {
      const read: Buffer[] = [];
      for (let seq = 0; seq * repo.RELEASE_CHUNK_BYTES < f.bytes.length; seq++) {
        read.push((await repo.readFileChunk(ctx.database.db, row!.id, f.name, seq))!);
      }
      expect(Buffer.concat(read).equals(f.bytes), f.name).toBe(true);
    }
    const info = await repo.findFileInfo(ctx.database.db, '2026-01-02', 'big.json');
    expect(info).toMatchObject({ size: big.length, position: 0 });
    expect(await repo.readFileChunk(ctx.database.db, row!.id, 'big.json', 3)).toBeUndefined();
    expect(await repo.findStoredForm(ctx.database.db, row!.id, 'big.json')).toEqual({
      encoding: 'identity',
      storedName: 'big.json',
      storedSize: big.length,
    });
    expect(await repo.findStoredForm(ctx.database.db, row!.id, 'nothing.txt')).toBeUndefined();
  });

  it('a file kept compressed is stored as its gzip stream under <name>.gz, in pieces, and read back as stored', async () => {
    // Text-like and several megabytes once compressed: random hex is about half its size in gzip.
    const plain = Buffer.from(randomBytes(3 * repo.RELEASE_CHUNK_BYTES).toString('hex'));
    const gzip = zlib.gzipSync(plain);
    expect(gzip.length).toBeGreaterThan(2 * repo.RELEASE_CHUNK_BYTES);
    const [row] = await ctx.database.db
      .insert(releases)
      .values({ version: '2026-01-03', cause: 'curator', cursor: 0, previousCursor: 0 })
      .returning();
    const file = {
      name: 'bv_database.json',
      contentType: 'application/json',
      bytes: plain,
      sha256: 'd',
      gzip,
    };
    await ctx.database.db.transaction((tx) => repo.publishRelease(tx, row!.id, 'notes', [file]));
    const form = await repo.findStoredForm(ctx.database.db, row!.id, 'bv_database.json');
    expect(form).toEqual({ encoding: 'gzip', storedName: 'bv_database.json.gz', storedSize: gzip.length });
    const read: Buffer[] = [];
    for (let seq = 0; seq * repo.RELEASE_CHUNK_BYTES < form!.storedSize; seq++) {
      read.push((await repo.readFileChunk(ctx.database.db, row!.id, form!.storedName, seq))!);
    }
    expect(read.length).toBe(Math.ceil(gzip.length / repo.RELEASE_CHUNK_BYTES));
    expect(zlib.gunzipSync(Buffer.concat(read)).equals(plain)).toBe(true);
    // The file's own size is listed, not the stored one.
    expect(await repo.findFileInfo(ctx.database.db, '2026-01-03', 'bv_database.json')).toMatchObject({
      size: plain.length,
    });
    expect(await repo.readFileChunk(ctx.database.db, row!.id, 'bv_database.json', 0)).toBeUndefined();
  });
});
