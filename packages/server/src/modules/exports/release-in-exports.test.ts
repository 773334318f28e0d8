import ExcelJS from 'exceljs';
import { BVDB_VERSION } from '@bvdb/contract';
import { describe, expect, it } from 'vitest';
import { signInAs } from '../../test/sign-in.js';
import { useTestApp } from '../../test/test-app.js';
import { DATA_USE_NOTICE } from './export-columns.js';
import { exportNotice } from '../../lib/export-notice.js';
import { csvReleaseHeaders } from './exports.service.js';

/** Every export names the release that made it and the terms of its data (issue 28). */
const LICENCE = 'CC BY-NC 4.0 — ask the EFLM WG-BV for other uses';
const ctx = useTestApp({ env: { DATA_LICENCE: LICENCE } });

async function readMe(payload: Buffer): Promise<{ names: string[]; rows: Record<string, string> }> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(payload as unknown as ArrayBuffer);
  const sheet = wb.getWorksheet('Read me');
  const rows: Record<string, string> = {};
  sheet?.eachRow((row) => {
    rows[row.getCell(1).text] = row.getCell(2).text;
  });
  return { names: wb.worksheets.map((w) => w.name), rows };
}

describe('the release and the data licence in every export', () => {
  it('/healthz answers the version beside its status', async () => {
    const res = await ctx.app.inject({ url: '/healthz' });
    expect(res.json()).toEqual({ status: 'ok', version: BVDB_VERSION });
  });

  it('bv_database.json carries them as fields, also when sent again from the kept file', async () => {
    const builds = ctx.app.deps.catalogue.builds;
    for (let i = 0; i < 2; i++) {
      const res = await ctx.app.inject({ url: '/export/bv_database.json' });
      expect(res.statusCode).toBe(200);
      const file = res.json<{ bvdb_version: string; data_licence: string; format: string }>();
      expect(file.bvdb_version).toBe(BVDB_VERSION);
      expect(file.data_licence).toBe(LICENCE);
    }
    expect(ctx.app.deps.catalogue.builds).toBe(builds + 1); // the second answer was the kept file
    // Signed in (built for each request) and a full backup say the same.
    const { cookie } = await signInAs(ctx.app);
    for (const url of ['/export/bv_database.json', '/export/bv_database.json?full=1']) {
      const res = await ctx.app.inject({ url, headers: { cookie } });
      expect(res.json<{ bvdb_version: string }>().bvdb_version).toBe(BVDB_VERSION);
    }
  });

  it('bv_database.csv carries them in headers, kept with the file, never as a line in it', async () => {
    const builds = ctx.app.deps.catalogue.builds;
    const first = await ctx.app.inject({ url: '/export/bv_database.csv' });
    const again = await ctx.app.inject({
      url: '/export/bv_database.csv',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(ctx.app.deps.catalogue.builds).toBe(builds + 1);
    for (const res of [first, again]) {
      expect(res.headers['bvdb-version']).toBe(BVDB_VERSION);
      expect(decodeURIComponent(String(res.headers['bvdb-data-licence']))).toBe(LICENCE);
    }
    expect(first.body.split('\r\n')[0]).toMatch(/^Dataset ID,/);
    expect(first.body).not.toContain('CC BY-NC');
  });

  it('every xlsx ends with a "Read me" sheet after the existing ones', async () => {
    const builds = ctx.app.deps.catalogue.builds;
    const urls = ['/export/bv_database.xlsx', '/export/bv_database.xlsx', '/export_by_reference/1.xlsx'];
    for (const url of urls) {
      const res = await ctx.app.inject({ url });
      expect(res.statusCode).toBe(200);
      const { names, rows } = await readMe(res.rawPayload);
      expect(names).toEqual(['Datasets', 'Meta-analysis', 'Citation', 'Read me']);
      expect(rows['bvdb version']).toBe(BVDB_VERSION);
      expect(rows['Data licence']).toBe(LICENCE);
    }
    expect(ctx.app.deps.catalogue.builds).toBe(builds + 1); // the whole-database workbook was kept
  });
});

describe('without DATA_LICENCE', () => {
  it('the licence is the data-use terms, written as a header value a reader decodes', () => {
    const notice = exportNotice({ DATA_USE_NOTICE: undefined, CITATION: undefined, DATA_LICENCE: undefined });
    expect(notice.licence).toBe(DATA_USE_NOTICE);
    const headers = csvReleaseHeaders({ ...notice, licence: 'Données 100 % libres\nligne' });
    expect(headers['Bvdb-Data-Licence']).toMatch(/^[\x20-\x7e]+$/);
    expect(decodeURIComponent(headers['Bvdb-Data-Licence']!)).toBe('Données 100 % libres\nligne');
  });
});
