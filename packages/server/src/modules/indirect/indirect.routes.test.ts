import {
  IndirectResponseSchema,
  INDIRECT_MAX_ROWS,
  LocalEstimateSchema,
  LocalEstimatesSchema,
  type IndirectResponse,
} from '@bvdb/contract';
import { normalQuantile, rcvAsymmetric } from '@bvdb/domain';
import { and, eq, isNotNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analytes, measurandCodes, metaCalculations } from '../../db/schema.js';
import { createSignedInTestApp, type SignedIn } from '../../test/sign-in.js';
import type { TestContext } from '../../test/test-app.js';
import { FIXTURE_HEADER, fixtureCsv, fixtureRows } from './extract-fixture.js';

let ctx: TestContext;
let s: SignedIn;
beforeAll(async () => {
  ({ ctx, s } = await createSignedInTestApp());
});
afterAll(async () => ctx.close());

function multipart(body: Buffer | string, name: string) {
  const boundary = '----bvdbindirect';
  return {
    payload: Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      Buffer.isBuffer(body) ? body : Buffer.from(body),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

const upload = (app: FastifyInstance, body: Buffer | string, query = '', name = 'extract.csv') =>
  app.inject({
    method: 'POST',
    url: `/api/v1/indirect${query ? `?${query}` : ''}`,
    ...multipart(body, name),
  });

/** A measurand with a displayed CVI (its headline matrix), as the measurand page shows it. */
async function measurandWithCvi() {
  const [row] = await ctx.database.db
    .select({ analyteId: metaCalculations.analyteId })
    .from(metaCalculations)
    .where(
      and(
        eq(metaCalculations.varType, ':cvi'),
        eq(metaCalculations.display, true),
        isNotNull(metaCalculations.median),
        isNotNull(metaCalculations.lower),
      ),
    )
    .limit(1);
  return row!.analyteId;
}

const csv = (rows: string[][], header = FIXTURE_HEADER) =>
  [header, ...rows].map((r) => r.join(',')).join('\n') + '\n';

describe('POST /api/v1/indirect (issue 46)', () => {
  it('estimates CV_total and the CVI of a seeded extract, beside bvdb’s estimate of the measurand', async () => {
    const id = await measurandWithCvi();
    const res = await upload(
      ctx.app,
      fixtureCsv({ patients: 800, cvi: 6, cva: 2 }),
      `measurand=${id}&cva=2&bootstrap=100`,
    );
    expect(res.statusCode, res.body).toBe(200);
    const body = IndirectResponseSchema.parse(res.json());
    expect(body.kept).toBe(false);
    expect(body.input).toMatchObject({
      format: 'csv',
      unit: 'mmol/L',
      columns: {
        patient: 'Patient ID',
        time: 'Collected',
        value: 'Result',
        unit: 'Unit',
        sex: 'Sex',
        age: 'Age',
        setting: 'Setting',
      },
    });
    expect(body.all.pairing.patients).toBe(800);
    expect(body.all.methods.map((m) => m.method)).toEqual([
      'result_ratio',
      'expected_mean_squares',
      'central_peak',
    ]);
    const rr = body.all.methods[0]!;
    // The truth: CVI 6 %, CVA 2 %, CV_total √(6² + 2²) ≈ 6.3 %.
    expect(rr.cv_total).toBeGreaterThan(5);
    expect(rr.cv_total).toBeLessThan(7.8);
    expect(rr.cvi).toBeGreaterThan(4.5);
    expect(rr.cvi).toBeLessThan(7.5);
    expect(rr.cvi_interval!.low).toBeLessThan(rr.cvi!);
    expect(rr.cvi_interval!.high).toBeGreaterThan(rr.cvi!);
    expect(rr.histogram.length).toBe(rr.fitted.length);
    // Strata by sex, age band and setting, each with its own N.
    const keys = body.strata.map((x) => JSON.stringify(x.key));
    expect(keys).toEqual(
      expect.arrayContaining(['{"sex":"female"}', '{"sex":"male"}', '{"setting":"outpatient"}']),
    );
    const female = body.strata.find((x) => x.key.sex === 'female')!;
    expect(female.pairing.patients).toBe(400);
    // Beside the published estimate: the same numbers the measurand page shows.
    expect(body.measurand!.id).toBe(id);
    const metas = (await ctx.app.inject({ url: `/api/v1/measurands/${id}/metas` })).json<{
      metas: { var_type: string; median: number; lower: number; upper: number; matrix_id: number | null }[];
    }>().metas;
    const shown = metas.find((m) => m.var_type === ':cvi' && m.matrix_id === body.published!.matrix_id)!;
    expect(body.published).toMatchObject({ median: shown.median, lower: shown.lower, upper: shown.upper });
    const c = body.comparison[0]!;
    expect(c.ratio).toBeCloseTo(rr.cvi! / shown.median, 10);
    expect(c.inside).toBe(rr.cvi! >= shown.lower && rr.cvi! <= shown.upper);
    const r = rcvAsymmetric(shown.median, 2, normalQuantile(0.975));
    expect(c.rcv_published).toEqual({ up: r.up, down: Math.abs(r.down) });
    expect(c.rcv_local).toEqual(rr.rcv_formula);
  });

  it('gives CV_total without a CVA, and no CVI', async () => {
    const res = await upload(ctx.app, fixtureCsv({ patients: 300 }), 'methods=result_ratio&bootstrap=50');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<IndirectResponse>();
    expect(body.all.methods).toHaveLength(1);
    expect(body.all.methods[0]!.cv_total).toBeGreaterThan(0);
    expect(body.all.methods[0]!.cvi).toBeNull();
    expect(body.published).toBeNull();
  });

  it('finds the measurand by its code as system|code, and says 404 for an unknown one', async () => {
    const [code] = await ctx.database.db
      .select({
        system: measurandCodes.system,
        code: measurandCodes.code,
        analyteId: measurandCodes.analyteId,
      })
      .from(measurandCodes)
      .limit(1);
    const token = encodeURIComponent(`${code!.system}|${code!.code}`);
    const res = await upload(ctx.app, fixtureCsv({ patients: 200 }), `measurand=${token}&bootstrap=20`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<IndirectResponse>().measurand!.id).toBe(code!.analyteId);
    const unknown = await upload(
      ctx.app,
      fixtureCsv({ patients: 200 }),
      'measurand=http%3A%2F%2Floinc.org%7C0000-0',
    );
    expect(unknown.statusCode).toBe(404);
  });

  it('reads a TSV with day-first dates and decimal commas, and other header names', async () => {
    const rows = fixtureRows({ patients: 200, seed: 3 }).map((r) => {
      const [y, m, d] = r[1]!.slice(0, 10).split('-');
      return [r[0]!, `${d}.${m}.${y} ${r[1]!.slice(11)}`, r[2]!.replace('.', ','), r[3]!];
    });
    const text = [['pid', 'Sample time', 'Value', 'UOM'], ...rows].map((r) => r.join('\t')).join('\n');
    const res = await upload(ctx.app, text, 'bootstrap=20', 'extract.tsv');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<IndirectResponse>();
    expect(body.input.format).toBe('tsv');
    expect(body.input.columns).toMatchObject({
      patient: 'pid',
      time: 'Sample time',
      value: 'Value',
      unit: 'UOM',
      sex: null,
    });
    expect(body.input.notes.join(' ')).toMatch(/day first/);
    expect(body.all.pairing.results).toBe(rows.length);
  });
});

describe('bad input is a 4xx or a counted step, never a 500 (issue 46.5)', () => {
  it('too few pairs: 422 saying how many', async () => {
    const res = await upload(ctx.app, fixtureCsv({ patients: 12, maxResults: 2 }));
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json<{ message: string }>().message).toMatch(
      /^Too few pairs: \d+ pairs? .*at least 50 are needed/,
    );
  });

  it('mixed units: 422 naming them', async () => {
    const rows = fixtureRows({ patients: 200 });
    rows.slice(0, 7).forEach((r) => (r[3] = 'mg/dL'));
    const res = await upload(ctx.app, csv(rows));
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json<{ message: string }>().message).toBe(
      `The file mixes units: mmol/L (${(rows.length - 7).toLocaleString('en')} rows), mg/dL (7 rows). Convert the results to one unit, or send one file per unit`,
    );
  });

  it('a date column it cannot read: 400 naming the rows, never the cells', async () => {
    const rows = fixtureRows({ patients: 200 });
    rows[4]![1] = 'yesterday morning';
    rows[9]![1] = '2024-13-45 99:00';
    const res = await upload(ctx.app, csv(rows));
    expect(res.statusCode, res.body).toBe(400);
    const message = res.json<{ message: string }>().message;
    expect(message).toMatch(
      /^The Collected column cannot be read as a date and time in 2 rows: rows 6, 11\. /,
    );
    expect(res.body).not.toContain('yesterday');
    expect(res.body).not.toContain('2024-13-45');
  });

  it(`more than ${INDIRECT_MAX_ROWS.toLocaleString('en')} rows: 413`, async () => {
    const line = 'P1,2024-01-01 08:00,1,mmol/L\n';
    const text = `patient,time,value,unit\n${line.repeat(INDIRECT_MAX_ROWS + 1)}`;
    const res = await upload(ctx.app, text);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(413);
    expect(res.json<{ message: string }>().message).toMatch(
      /^The file has 1,000,001 rows: at most 1,000,000/,
    );
  }, 60_000);

  it('duplicate and non-increasing times within a patient are dropped and counted', async () => {
    const rows = fixtureRows({ patients: 300, seed: 9 });
    // Five results repeated (same patient, same time), in the middle of the file.
    const dup = rows.slice(10, 15).map((r) => [...r]);
    const res = await upload(ctx.app, csv([...rows, ...dup]), 'bootstrap=20');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<IndirectResponse>();
    // Both results of each shared time are dropped (which came first cannot be known): 5 × 2.
    expect(body.all.pairing.dropped_duplicate_times).toBe(10);
    expect(body.all.pairing.results).toBe(rows.length + 5);
  });

  it('values that are not numbers and rows without a patient are dropped and counted', async () => {
    const rows = fixtureRows({ patients: 200 });
    rows[0]![2] = '<0.5';
    rows[1]![2] = '';
    rows[2]![0] = '';
    const res = await upload(ctx.app, csv(rows), 'bootstrap=20');
    expect(res.statusCode, res.body).toBe(200);
    const steps = res.json<IndirectResponse>().input.steps;
    expect(steps.find((x) => x.step.startsWith('value missing'))!.removed).toBe(2);
    expect(steps.find((x) => x.step === 'no patient id')!.removed).toBe(1);
    expect(res.body).not.toContain('<0.5');
  });

  it('no patient column, an unknown method, min above max: 400', async () => {
    const noPatient = await upload(ctx.app, 'date,value\n2024-01-01,1\n');
    expect(noPatient.statusCode).toBe(400);
    expect(noPatient.json<{ message: string }>().message).toMatch(/^No patient column/);
    expect((await upload(ctx.app, fixtureCsv({ patients: 50 }), 'methods=magic')).statusCode).toBe(400);
    expect((await upload(ctx.app, fixtureCsv({ patients: 50 }), 'min_days=10&max_days=2')).statusCode).toBe(
      400,
    );
    expect((await upload(ctx.app, Buffer.from([0xff, 0xfe, 0x00, 0x01]))).statusCode).toBe(400);
  });
});

describe('nothing kept (issue 46.4)', () => {
  async function rowCounts() {
    const tables = (
      await ctx.database.execute(
        "select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1",
      )
    ).rows as { table_name: string }[];
    const out: Record<string, number> = {};
    for (const t of tables) {
      const r = (await ctx.database.execute(`select count(*)::int as n from "${t.table_name}"`)).rows as {
        n: number;
      }[];
      out[t.table_name] = r[0]!.n;
    }
    return out;
  }

  it('an unsaved run adds no row to any table', async () => {
    const before = await rowCounts();
    expect(Object.keys(before)).toContain('local_estimates');
    const id = await measurandWithCvi();
    const res = await upload(ctx.app, fixtureCsv({ patients: 300 }), `measurand=${id}&cva=2&bootstrap=20`);
    expect(res.statusCode).toBe(200);
    expect(await rowCounts()).toEqual(before);
  });

  it('no patient id, value or date of the upload is in a log line, an error or the answer', async () => {
    const lines: string[] = [];
    const { buildApp } = await import('../../app.js');
    const { testConfig } = await import('../../test/test-app.js');
    const app = await buildApp({
      config: testConfig({ LOG_LEVEL: 'trace' }),
      database: ctx.database,
      logStream: { write: (line) => void lines.push(line) },
    });
    await app.ready();
    try {
      const rows = fixtureRows({ patients: 150, seed: 77 });
      const id = await measurandWithCvi();
      const answers: string[] = [];
      const ok = await upload(app, csv(rows), `measurand=${id}&cva=2&bootstrap=20`);
      expect(ok.statusCode).toBe(200);
      answers.push(ok.body);
      const mixed = rows.map((r, i) => (i === 3 ? [...r.slice(0, 3), 'mg/dL', ...r.slice(4)] : r));
      answers.push((await upload(app, csv(mixed))).body);
      const badDate = rows.map((r, i) => (i === 5 ? [r[0]!, 'not-a-date', ...r.slice(2)] : r));
      answers.push((await upload(app, csv(badDate))).body);
      answers.push((await upload(app, csv(rows.slice(0, 20)))).body);
      const unquoted = `${FIXTURE_HEADER.join(',')}\n${rows[0]!.join(',')}\nP-000001,"2024-01-0"1 x,5.2,mmol/L\n`;
      answers.push((await upload(app, unquoted)).body);
      expect(lines.length).toBeGreaterThan(5);
      // The logger's own numbers (when, how long) are not the upload's: a response time of 3.38… ms
      // once matched the value 3.38.
      const logged = lines
        .map((line) => {
          const { time: _t, responseTime: _r, ...rest } = JSON.parse(line) as Record<string, unknown>;
          return JSON.stringify(rest);
        })
        .join('\n');
      const seen = [logged, ...answers];
      for (const r of rows) {
        for (const text of seen) {
          expect(text).not.toContain(r[0]!); // patient id
          expect(text).not.toContain(r[1]!); // date-time as written
          expect(text).not.toContain(r[1]!.slice(0, 10).replace(/-/g, '')); // the date in another form
        }
        expect(logged).not.toContain(`"${r[2]!}"`); // the value
        expect(logged).not.toContain(`:${r[2]!}`);
      }
      expect(logged).not.toContain('not-a-date');
      for (const text of seen) expect(text).not.toMatch(/P-0\d{5}/);
    } finally {
      await app.close();
    }
  });
});

describe('local estimates of a measurand (issue 46.4)', () => {
  const body = {
    laboratory: 'Example hospital laboratory',
    method: 'result_ratio',
    cv_total: 6.4,
    cva: 2,
    cvi: 6.1,
    cvi_lower: 5.6,
    cvi_upper: 6.7,
    pairs: 5123,
    patients: 2100,
    results: 9000,
    min_days: 1,
    max_days: 30,
    pairs_per_patient: 'all',
    period: '2023–2024',
  };
  const post = (id: number, payload: object, headers: Record<string, string> = s.headers) =>
    ctx.app.inject({ method: 'POST', url: `/api/v1/measurands/${id}/local-estimates`, payload, headers });

  it('are saved by a curator (never rows), listed apart, and leave the meta-analysis as it was', async () => {
    const id = await measurandWithCvi();
    const metas = async () => (await ctx.app.inject({ url: `/api/v1/measurands/${id}/metas` })).body;
    const before = await metas();
    expect((await post(id, body, {})).statusCode).toBe(401);
    expect((await post(id, body, { cookie: s.cookie })).statusCode).toBe(403);
    expect((await post(id, { ...body, rows: [['P-1', '2024-01-01', 5]] })).statusCode).toBe(400);
    const res = await post(id, body);
    expect(res.statusCode, res.body).toBe(201);
    const saved = LocalEstimateSchema.parse(res.json());
    expect(saved).toMatchObject({
      measurand_id: id,
      evidence_class: 'routine data (indirect)',
      cvi: 6.1,
      pairs: 5123,
    });
    const list = LocalEstimatesSchema.parse(
      (await ctx.app.inject({ url: `/api/v1/measurands/${id}/local-estimates` })).json(),
    );
    expect(list.items[0]).toEqual(saved);
    expect(await metas()).toBe(before);
    expect((await ctx.app.inject({ url: '/api/v1/measurands/999999/local-estimates' })).statusCode).toBe(404);
    expect((await post(999999, body)).statusCode).toBe(404);
    expect((await post(id, { ...body, cvi_lower: 7, cvi_upper: 6 })).statusCode).toBe(400);
  });

  it('a measurand without any has an empty list', async () => {
    const [a] = await ctx.database.db.select({ id: analytes.id }).from(analytes).limit(1);
    const list = (await ctx.app.inject({ url: `/api/v1/measurands/${a!.id}/local-estimates` })).json<{
      items: unknown[];
    }>();
    expect(Array.isArray(list.items)).toBe(true);
  });
});
