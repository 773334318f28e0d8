import {
  ApplicationsSchema,
  ChangeVerdictBatchSchema,
  ChangeVerdictSchema,
  RCV_BATCH_MAX,
  type ApplicationsRow,
} from '@bvdb/contract';
import { parseCsv } from '@bvdb/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAfterReady } from '../../app.js';
import { createTestApp, type TestContext } from '../../test/test-app.js';

let ctx: TestContext;
let row: ApplicationsRow;

beforeAll(async () => {
  ctx = await createTestApp();
  const table = ApplicationsSchema.parse((await ctx.app.inject({ url: '/api/v1/applications' })).json());
  row = table.data.find((r) => r.headline && r.cvi !== null)!;
});
afterAll(async () => ctx.close());

const post = (payload: unknown, headers: Record<string, string> = {}, query = '') =>
  ctx.app.inject({
    method: 'POST',
    url: `/api/v1/rcv${query}`,
    headers: { 'content-type': typeof payload === 'string' ? 'text/csv' : 'application/json', ...headers },
    payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });

const single = async (query: string) =>
  ChangeVerdictSchema.parse((await ctx.app.inject({ url: `/api/v1/rcv?${query}` })).json());

describe('POST /api/v1/rcv (issue 45.5)', () => {
  it('warms its threads once the server is ready; a batch asked meanwhile waits for the warm-up and is answered', async () => {
    // Nothing warmed before ready: buildApp only registers the warm-up (main.ts starts it).
    expect(ctx.app.lifecycle.afterReady.length).toBeGreaterThan(0);
    const warming = startAfterReady(ctx.app);
    const res = await post({ pairs: [{ measurand: String(row.measurand_id), x1: 100, x2: 150, cva: 2 }] });
    await warming;
    expect(res.statusCode, res.body).toBe(200);
    expect(ChangeVerdictBatchSchema.parse(res.json()).summary).toMatchObject({ pairs: 1, judged: 1 });
  }, 60_000);

  it('answers each pair in order as the single verdict does, a bad line with its status and message', async () => {
    const res = await post(
      {
        pairs: [
          { measurand: String(row.measurand_id), x1: 100, x2: 150, cva: 2 },
          { measurand: String(row.measurand_id), x1: 0, x2: 5, cva: 2 },
          { code: 'http://loinc.org|99999-9', x1: 5, x2: 6, cva: 2 },
          { measurand: String(row.measurand_id), x1: 5, x2: 6 },
          { measurand: row.display_name, x1: 100, x2: 101, cva: 'desirable' },
        ],
      },
      {},
      '?probability=0.99',
    );
    expect(res.statusCode, res.body).toBe(200);
    const batch = ChangeVerdictBatchSchema.parse(res.json());
    expect(batch.summary).toEqual({ pairs: 5, judged: 2, significant: 1, errors: 3 });
    expect(batch.results.map((r) => [r.line, r.status])).toEqual([
      [1, 200],
      [2, 400],
      [3, 404],
      [4, 422],
      [5, 200],
    ]);
    const first = await single(`measurand=${row.measurand_id}&x1=100&x2=150&cva=2&probability=0.99`);
    expect(batch.results[0]).toMatchObject({
      measurand_id: row.measurand_id,
      matrix: first.matrix.name,
      estimate_id: first.estimate.id,
      version: first.estimate.version,
      change_pct: first.change_pct,
      rcv_up: first.rcv.up,
      rcv_down: first.rcv.down,
      significant: first.significant,
      interpretation: first.interpretation.v2_0078,
      error: null,
    });
    expect(batch.results[1]!.error).toMatch(/^x1: /);
    expect(batch.results[2]!.error).toMatch(/No measurand has the code/);
    expect(batch.results[3]!.error).toMatch(/^cva is required/);
    expect(batch.results[4]).toMatchObject({
      cva_source: 'desirable',
      significant: false,
      interpretation: null,
    });
  });

  it('takes CSV with a header and answers CSV when asked, one row per pair in order', async () => {
    const csv = `measurand,x1,x2,cva\r\n${row.measurand_id},100,150,2\r\n${row.measurand_id},100,,2\r\n`;
    const json = ChangeVerdictBatchSchema.parse((await post(csv)).json());
    expect(json.results.map((r) => r.status)).toEqual([200, 400]);
    const res = await post(csv, { accept: 'text/csv' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    const [header, ...rows] = parseCsv(res.body).filter((r) => r.length > 1);
    expect(header).toEqual(Object.keys(json.results[0]!));
    expect(rows).toHaveLength(2);
    expect(rows[0]![header!.indexOf('interpretation')]).toBe(json.results[0]!.interpretation ?? '');
    expect(rows[1]![header!.indexOf('status')]).toBe('400');
  });

  it('converts x2 per line where UCUM can, and answers a line UCUM cannot convert with its 422', async () => {
    const m = row.measurand_id;
    const csv = `measurand,x1,x2,unit,unit2,cva\r\n${m},100,1.5,mg/dL,g/L,2\r\n${m},5,90,mmol/L,mg/dL,2\r\n${m},5,6,bogus,,2\r\n${m},100,150,mg/dL,,2\r\n`;
    const res = await post(csv);
    expect(res.statusCode, res.body).toBe(200);
    const batch = ChangeVerdictBatchSchema.parse(res.json());
    expect(batch.results.map((r) => r.status)).toEqual([200, 422, 422, 200]);
    const [converted, molar, bogus, inOne] = batch.results;
    expect(converted!.x2_converted).toBeCloseTo(150, 10);
    expect(inOne!.x2_converted).toBeNull();
    expect(converted!.change_pct).toBeCloseTo(inOne!.change_pct!, 10);
    expect([converted!.rcv_up, converted!.interpretation]).toEqual([inOne!.rcv_up, inOne!.interpretation]);
    expect(molar!.error).toMatch(/^x2 in mg\/dL cannot be compared with x1 in mmol\/L: .*molar mass/);
    expect(bogus!.error).toMatch(/^unit "bogus" is not a UCUM unit/);
  });

  it(`refuses more than ${RCV_BATCH_MAX} pairs, an empty batch and a CSV without the columns it needs`, async () => {
    const many = Array.from({ length: RCV_BATCH_MAX + 1 }, () => ({ measurand: '1', x1: 1, x2: 1, cva: 1 }));
    expect((await post({ pairs: many })).statusCode).toBe(400);
    expect((await post({ pairs: [] })).statusCode).toBe(400);
    const noColumns = await post('name,value\r\nx,1\r\n');
    expect(noColumns.statusCode).toBe(400);
    expect(noColumns.json().message).toMatch(/must name code or measurand, x1 and x2/);
  });

  it(`judges ${RCV_BATCH_MAX} pairs in one batch, a body past the server's 1 MB limit`, async () => {
    const pairs = Array.from({ length: RCV_BATCH_MAX }, (_, i) => ({
      measurand: row.display_name,
      matrix: row.matrix,
      x1: 100.25,
      x2: 100 + (i % 60),
      unit: 'umol/L',
      unit2: 'umol/L',
      cva: 2.5,
      n1: 1,
      n2: 1,
    }));
    expect(JSON.stringify({ pairs }).length).toBeGreaterThan(1024 * 1024);
    const res = await post({ pairs });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    const batch = ChangeVerdictBatchSchema.parse(res.json());
    expect(batch.summary.judged).toBe(RCV_BATCH_MAX);
    expect(batch.results.at(-1)!.line).toBe(RCV_BATCH_MAX);
  });
});
