import { createHash } from 'node:crypto';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceDeps } from '../../lib/service-deps.js';
import { signInAs, type SignedIn } from '../../test/sign-in.js';
import { createTestApp, type TestContext } from '../../test/test-app.js';
import { createUser } from '../auth/users.service.js';

// On PGlite, and on PostgreSQL when TEST_DATABASE_URL names a server.
let ctx: TestContext;
let admin: SignedIn;
let assessor: SignedIn;
let datasetId: number;
const PASSWORD = 'raw-data-password-1';
/** Pseudonyms of the study's subjects: they must never reach a public answer. */
const CSV = 'subject,sample,replicate,value\nPSEUDO-S1,1,1,4.1\nPSEUDO-S1,1,2,4.2\nPSEUDO-S2,1,1,5.0\n';

beforeAll(async () => {
  ctx = await createTestApp();
  await createUser(serviceDeps(ctx.app), {
    email: 'raw-assessor@example.org',
    name: null,
    role: 'assessor',
    password: PASSWORD,
  });
  admin = await signInAs(ctx.app);
  assessor = await signInAs(ctx.app, 'raw-assessor@example.org', PASSWORD);
  const row = await ctx.database.execute('select min(id)::int as id from bv_specifications where published');
  datasetId = (row.rows[0] as { id: number }).id;
}, 120_000);
afterAll(async () => {
  await ctx?.close();
});

function multipart(body: Buffer | string, name: string) {
  const boundary = '----bvdbrawdata';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  return {
    payload: Buffer.concat([head, Buffer.from(body), Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}
const url = (id = datasetId) => `/api/v1/datasets/${id}/raw-data`;
const put = (body: Buffer | string, name: string, who: SignedIn | null = admin, id = datasetId) => {
  const m = multipart(body, name);
  return ctx.app.inject({
    method: 'PUT',
    url: url(id),
    payload: m.payload,
    headers: { ...m.headers, ...(who?.headers ?? {}) },
  });
};
const get = (path: string, who: SignedIn | null = admin) =>
  ctx.app.inject({ url: path, headers: who?.headers ?? {} });

describe("a dataset's raw-data file (issue 31.3)", () => {
  it('is kept for staff: described, downloaded byte for byte, replaced, and recorded in the trail', async () => {
    expect((await get(url())).json()).toEqual({ raw_data: null });
    const res = await put(CSV, 'C:\\study\\creatinine raw.csv');
    expect(res.statusCode).toBe(200);
    const kept = res.json<{ raw_data: Record<string, unknown> }>().raw_data;
    expect(kept).toMatchObject({
      file_name: 'creatinine raw.csv',
      content_type: 'text/csv; charset=utf-8',
      bytes: Buffer.byteLength(CSV),
      sha256: createHash('sha256').update(CSV).digest('hex'),
      uploaded_by: 'admin@example.org',
    });
    expect((await get(url())).json()).toEqual({ raw_data: kept });
    const file = await get(`${url()}/file`);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(file.headers['content-disposition']).toContain('creatinine raw.csv');
    expect(file.headers['cache-control']).toBe('private, no-store');
    expect(file.body).toBe(CSV);

    // An .xlsx replaces it (one file per dataset), recognised by its content.
    const book = new ExcelJS.Workbook();
    book.addWorksheet('raw').addRows([
      ['subject', 'sample', 'value'],
      ['PSEUDO-S1', 1, 4.1],
    ]);
    const xlsx = Buffer.from(await book.xlsx.writeBuffer());
    const replaced = await put(xlsx, 'study');
    expect(replaced.json()).toMatchObject({
      raw_data: { file_name: 'study.xlsx', bytes: xlsx.length },
    });
    const again = await get(`${url()}/file`);
    expect(again.rawPayload.equals(xlsx)).toBe(true);

    const trail = await get(`/api/audit/bv_specification/${datasetId}`);
    expect(trail.body).toContain('study.xlsx');
  });

  it('is refused to the public and to assessors, and refuses what is not a results file', async () => {
    for (const path of [url(), `${url()}/file`]) {
      expect((await get(path, null)).statusCode, path).toBe(401);
      expect((await get(path, assessor)).statusCode, path).toBe(403);
    }
    expect((await put(CSV, 'a.csv', null)).statusCode).toBe(401);
    expect((await put(CSV, 'a.csv', assessor)).statusCode).toBe(403);
    // Without the CSRF token a signed-in upload is refused too.
    const m = multipart(CSV, 'a.csv');
    const noCsrf = await ctx.app.inject({
      method: 'PUT',
      url: url(),
      payload: m.payload,
      headers: { ...m.headers, cookie: admin.cookie },
    });
    expect(noCsrf.statusCode).toBe(403);

    const binary = await put(Buffer.from([0x25, 0x50, 0x44, 0x46, 0x00, 0xff, 0xfe]), 'a.pdf');
    expect(binary.statusCode).toBe(422);
    expect(binary.json<{ message: string }>().message).toMatch(/CSV or TSV text file, or an \.xlsx/);
    const missing = await put(CSV, 'a.csv', admin, 999_999);
    expect(missing.statusCode).toBe(404);
    expect((await get(url(999_999))).statusCode).toBe(404);
    const tooLarge = await put(Buffer.alloc(2 * 1024 * 1024 + 10, 'a'), 'big.csv');
    expect(tooLarge.statusCode).toBe(413);
  });

  it('is in no public answer or public export, only in a complete backup', async () => {
    expect((await put(CSV, 'raw.csv')).statusCode).toBe(200);
    const publicExport = await get('/export/bv_database.json', null);
    expect(publicExport.statusCode).toBe(200);
    expect(publicExport.body).not.toContain('dataset_raw_files');
    expect(publicExport.body).not.toContain('PSEUDO');
    for (const path of [`/api/v1/datasets/${datasetId}`, `/api/bv_specifications/${datasetId}`]) {
      expect((await get(path, null)).body, path).not.toContain('PSEUDO');
    }
    const full = await get('/export/bv_database.json?full=1');
    const tables = full.json<{ tables: Record<string, { bv_specification_id: number }[]> }>().tables;
    expect(tables.dataset_raw_files!.map((r) => r.bv_specification_id)).toEqual([datasetId]);
  });

  it('is removed on request, and goes with its dataset', async () => {
    expect((await put(CSV, 'raw.csv')).statusCode).toBe(200);
    const removed = await ctx.app.inject({ method: 'DELETE', url: url(), headers: admin.headers });
    expect(removed.json()).toEqual({ raw_data: null });
    expect((await get(`${url()}/file`)).statusCode).toBe(404);

    expect((await put(CSV, 'raw.csv')).statusCode).toBe(200);
    const { version } = (await get(`/api/bv_specifications/${datasetId}`)).json<{
      dataset: { version: number };
    }>().dataset;
    const deleted = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/bv_specifications/${datasetId}?version=${version}`,
      headers: admin.headers,
    });
    expect(deleted.statusCode).toBe(200);
    const left = await ctx.database.execute(
      `select count(*)::int as n from dataset_raw_files where bv_specification_id = ${datasetId}`,
    );
    expect((left.rows[0] as { n: number }).n).toBe(0);
    expect((await get(url())).statusCode).toBe(404);
  });
});
