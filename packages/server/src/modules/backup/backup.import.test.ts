import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../auth/users.service.js';
import { signInAs } from '../../test/sign-in.js';
import { createTestApp, type TestContext } from '../../test/test-app.js';
import { depsOf } from '../../test/backup-answers.js';
import { importDatabaseJson, type FileText, type ImportOptions } from './backup-import.service.js';

type Row = Record<string, unknown>;
interface File {
  format_version: number;
  tables: Record<string, Row[]>;
}

let text: string;
let target: TestContext;
beforeAll(async () => {
  const source = await createTestApp();
  text = (await source.app.inject({ url: '/export/bv_database.json' })).body;
  await source.close();
  target = await createTestApp({ demo: false });
}, 120_000);
afterAll(async () => target?.close());

const counts = async () => {
  const res = await target.database.execute(
    'select (select count(*) from analytes)::int a, (select count(*) from "references")::int r, (select count(*) from bv_specifications)::int d, (select count(*) from matrices)::int m',
  );
  return res.rows[0] as Row;
};
const edit = (change: (f: File) => void) => {
  const f = JSON.parse(text) as File;
  change(f);
  return JSON.stringify(f);
};
const backupFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'bvdb-import-test-'));
afterAll(() => fs.rmSync(backupFolder, { recursive: true, force: true }));
const load = (body: FileText, opts: Partial<ImportOptions> = {}) =>
  importDatabaseJson(depsOf(target), body, { mode: 'new', allowFull: false, backupFolder, ...opts });

describe('a bad file is refused with a message naming the row and field, and nothing is written', () => {
  const spec = (f: File, i = 3) => f.tables.bv_specifications![i]!;
  const cases: [string, () => string, RegExp][] = [
    ['not JSON', () => 'Author,Title\nSmith,BV', /The file is not JSON/],
    [
      'a truncated file',
      () => text.slice(0, Math.floor(text.length / 2)),
      /ends before its data does \(truncated\?\)/,
    ],
    [
      'a file cut right after a comma',
      () => text.slice(0, text.indexOf(',', Math.floor(text.length / 3)) + 1),
      /ends before its data does \(truncated\?\)/,
    ],
    ['another JSON file', () => JSON.stringify({ analytes: [] }), /not a bvdb database file/],
    [
      // A workbook's bytes hold brackets enough to trip the depth check: its message named depth.
      'an Excel workbook (.xlsx)',
      () => `PK\u0003\u0004\u0014\u0000[Content_Types].xml${'['.repeat(200)}`,
      /^This is a ZIP file \(an Excel workbook \.xlsx is one\), not a bvdb database file \(JSON\)/,
    ],
    ['a PDF', () => `%PDF-1.7\n${'['.repeat(200)}`, /^This is a PDF, not a bvdb database file/],
    ['an empty file', () => '  ', /^The file is empty, not a bvdb database file/],
    [
      'JSON nested 10,000 levels deep',
      () => `{"format":${'['.repeat(10_000)}${']'.repeat(10_000)}}`,
      /nests deeper than 64 levels: not a bvdb database file/,
    ],
    [
      'a wrong format version',
      () => edit((f) => (f.format_version = 2)),
      /Format version 2 is not one this bvdb reads/,
    ],
    [
      'a bad grade',
      () => edit((f) => (spec(f).scale = 'Z')),
      /bv_specifications, row 4 \(id \d+\), field scale: "Z" is not a grade this item allows/,
    ],
    [
      'an unknown matrix',
      () => edit((f) => (spec(f).matrix_id = 9999)),
      /bv_specifications, row 4 \(id \d+\), field matrix_id: matrices id 9999 does not exist/,
    ],
    [
      'an unknown unit',
      () => edit((f) => (spec(f).unit_id = 9999)),
      /bv_specifications, row 4 \(id \d+\), field unit_id: units id 9999 does not exist/,
    ],
    [
      'a reference id that does not exist',
      () => edit((f) => (spec(f).reference_id = 99999)),
      /field reference_id: references id 99999 does not exist/,
    ],
    [
      'a duplicate id',
      () => edit((f) => f.tables.analytes!.push({ ...f.tables.analytes![0]! })),
      /analytes, row \d+ \(id \d+\), field id: duplicate id/,
    ],
    [
      'a number as text',
      () => edit((f) => (spec(f).estimates_of_cvi = '5,1')),
      /field estimates_of_cvi: "5,1" is not a number/,
    ],
    ['an unknown table', () => edit((f) => (f.tables.patients = [])), /patients: is not a table bvdb knows/],
  ];
  it.each(cases)('%s', async (_name, body, message) => {
    const before = await counts();
    await expect(load(body())).rejects.toThrow(message);
    expect(await counts()).toEqual(before);
  });

  // `npm run import` hands over the file's bytes, read a row at a time (decision 073).
  it.each(cases)('%s, read from its bytes as the command line does', async (_name, body, message) => {
    const before = await counts();
    await expect(load(() => Buffer.from(body()))).rejects.toThrow(message);
    expect(await counts()).toEqual(before);
  });

  it('a rule only the database knows (two measurands of one name) rolls the whole import back', async () => {
    const before = await counts();
    const body = edit((f) => {
      const [a, b] = f.tables.analytes!;
      b!.display_name = String(a!.display_name).toUpperCase();
    });
    await expect(load(body)).rejects.toThrow(
      /The database refused the file in analytes.*Nothing was imported/,
    );
    expect(await counts()).toEqual(before);
  });
});

describe('a database that holds records', () => {
  it('refuses a plain import, previews a merge, and replaces with replace', async () => {
    await load(text);
    const imported = await counts();
    await expect(load(text)).rejects.toThrow(/already holds \d+ measurands.*--replace.*--merge/);
    const preview = await load(text, { mode: 'merge', dryRun: true });
    expect(preview.written).toBe(false);
    const analytes = preview.tables.find((t) => t.name === 'analytes')!;
    expect(analytes.overwritten.length).toBe(analytes.rows);
    const smaller = edit((f) => {
      f.tables.bv_specifications = f.tables.bv_specifications!.slice(0, 5);
      const kept = new Set(f.tables.bv_specifications.map((d) => d.id));
      for (const t of ['bv_specification_disease_states', 'meta_calculation_datasets']) {
        f.tables[t] = f.tables[t]!.filter((r) => kept.has(r.bv_specification_id));
      }
    });
    await load(smaller, { mode: 'replace' });
    expect(await counts()).toMatchObject({ a: imported.a, d: 5 });
    // From its bytes, as the command line reads it (decision 073): the same rows come back.
    await load(Buffer.from(text), { mode: 'merge' });
    expect(await counts()).toEqual(imported);
  }, 120_000);
});

function multipart(body: Buffer | string, name = 'bv_database.json') {
  const boundary = '----bvdbtest';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/json\r\n\r\n`,
  );
  return {
    payload: Buffer.concat([
      head,
      Buffer.isBuffer(body) ? body : Buffer.from(body),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

describe('POST /api/v1/admin/import', () => {
  it('administrators only: anonymous 401, a curator 403', async () => {
    const anon = await target.app.inject({ method: 'POST', url: '/api/v1/admin/import', ...multipart(text) });
    expect(anon.statusCode).toBe(401);
    await createUser(
      { db: target.database.db },
      { email: 'curator@example.org', name: null, role: 'curator', password: 'curator-pass-1' },
    );
    const s = await signInAs(target.app, 'curator@example.org', 'curator-pass-1');
    const m = multipart(text);
    const res = await target.app.inject({
      method: 'POST',
      url: '/api/v1/admin/import?dry_run=1&mode=merge',
      payload: m.payload,
      headers: { ...m.headers, ...s.headers },
    });
    expect(res.statusCode).toBe(403);
  });

  it('a preview (dry run) writes nothing; a bad file is a 400 naming the field; a 100 MB upload is refused', async () => {
    const s = await signInAs(target.app);
    const post = (query: string, body: Buffer | string) => {
      const m = multipart(body);
      return target.app.inject({
        method: 'POST',
        url: `/api/v1/admin/import?${query}`,
        payload: m.payload,
        headers: { ...m.headers, ...s.headers },
      });
    };
    const before = await counts();
    const preview = await post('mode=replace&dry_run=1', text);
    expect(preview.statusCode).toBe(200);
    expect(preview.json()).toMatchObject({ written: false, format_version: 1 });
    const bad = await post(
      'mode=replace',
      edit((f) => (f.tables.bv_specifications![0]!.anova = 'E')),
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ fields: { path: string }[] }>().fields[0]!.path).toBe('bv_specifications.row 1.anova');
    const huge = await post('mode=replace', Buffer.alloc(100 * 1024 * 1024, 32));
    expect(huge.statusCode).toBe(413);
    expect(huge.json<{ message: string }>().message).toMatch(/too large \(96 MB at most\)/);
    expect(await counts()).toEqual(before);
  }, 120_000);
});
