import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { estimateBiologicalVariation } from '@bvdb/domain';
import {
  createEstimation,
  ESTIMATION_MAX_FILE_BYTES,
  ESTIMATION_MAX_ROWS,
  type EstimationResponse,
} from '@bvdb/contract';
import { costOfRoute } from '../../plugins/rate-limits.js';
import { useTestApp } from '../../test/test-app.js';

const ctx = useTestApp({ demo: false });
const URL_ = '/api/v1/estimations';

interface Case {
  name: string;
  rows: { subject: string; sample: string; replicate: number; value: number | null; group?: string }[];
}
const fixtures = JSON.parse(
  readFileSync(new URL('../../../../domain/test-data/estimation/fixtures.json', import.meta.url), 'utf8'),
) as { cases: Case[] };
const caseRows = (name: string) => fixtures.cases.find((c) => c.name === name)!.rows;

const toCsv = (
  rows: Case['rows'],
  sep = ',',
  headers = ['subject', 'sample', 'replicate', 'value', 'group'],
) =>
  [
    headers.join(sep),
    ...rows.map((r) => [r.subject, r.sample, r.replicate, r.value ?? '', r.group ?? ''].join(sep)),
  ].join('\n');

const post = (payload: string | object | Buffer, headers: Record<string, string> = {}, query = '') =>
  ctx.app.inject({ method: 'POST', url: `${URL_}${query}`, payload, headers });
const postCsv = (text: string, query = '') => post(text, { 'content-type': 'text/csv' }, query);

function multipart(body: Buffer | string, name: string) {
  const boundary = '----bvdbestimation';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
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
const postFile = (body: Buffer | string, name: string, query = '') => {
  const m = multipart(body, name);
  return post(m.payload, m.headers, query);
};

/** The engine's own answer on the same rows, as JSON carries it (non-finite numbers as null). */
const engine = (rows: Case['rows'], options = {}) =>
  JSON.parse(
    JSON.stringify(
      estimateBiologicalVariation(
        rows.map((r) => ({ ...r, replicate: String(r.replicate) })),
        options,
      ),
      (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? null : v),
    ),
  ) as Record<string, unknown>;

const withoutReport = (body: EstimationResponse) => {
  const { input: _input, subjects: _subjects, ...rest } = body;
  return rest;
};

describe('POST /api/v1/estimations: good input', () => {
  it('a CSV answers the domain engine’s numbers on the same rows (outlier case: every step fires)', async () => {
    const rows = caseRows('outliers');
    const res = await postCsv(toCsv(rows));
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<EstimationResponse>();
    expect(withoutReport(body)).toEqual(engine(rows));
    expect(body.excluded.map((e) => e.step)).toEqual(
      expect.arrayContaining(['replicate_cochran', 'sample_cochran', 'reed']),
    );
    expect(body.input).toMatchObject({
      format: 'csv',
      rows: rows.length,
      columns: { subject: 'subject', value: 'value' },
    });
    // every excluded subject's points are marked in the plot data
    const reed = body.excluded.find((e) => e.step === 'reed')!;
    const points = body.subjects.find((s) => s.subject === reed.subject)!.points;
    expect(points.every((p) => p.excluded !== null)).toBe(true);
  });

  it('JSON rows, TSV, a CSV file and an .xlsx file give the same estimates as the CSV body', async () => {
    const rows = caseRows('unbalanced');
    const csv = (await postCsv(toCsv(rows))).json<EstimationResponse>();
    const json = await post({ rows: rows.map(({ group: _g, ...r }) => r) });
    const tsv = await post(toCsv(rows, '\t'), { 'content-type': 'text/tab-separated-values' });
    const file = await postFile(toCsv(rows), 'study.csv');
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Sheet1');
    ws.addRow(['Patient', 'Visit', 'Rep', 'Result']);
    for (const r of rows) ws.addRow([r.subject, Number(r.sample), r.replicate, r.value]);
    const xlsx = await postFile(Buffer.from(await wb.xlsx.writeBuffer()), 'study.xlsx');
    for (const res of [json, tsv, file, xlsx]) {
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<EstimationResponse>().estimates).toEqual(csv.estimates);
    }
    expect(tsv.json<EstimationResponse>().input.format).toBe('tsv');
    expect(xlsx.json<EstimationResponse>().input.columns).toMatchObject({
      subject: 'Patient',
      sample: 'Visit',
      replicate: 'Rep',
      value: 'Result',
    });
  });

  it('a tab-separated file named .txt with decimal commas is read from its content, and the report says so (issue 42.6)', async () => {
    const rows = caseRows('unbalanced');
    const csv = (await postCsv(toCsv(rows))).json<EstimationResponse>();
    // As a published example study is distributed: tabs, its own header names, decimal commas.
    const txt = toCsv(
      rows.map((r) => ({ ...r, group: '' })),
      '\t',
      ['pat', 'time.point', 'rep', 'meas', 'group'],
    ).replace(/(\d)\.(\d)/g, '$1,$2');
    expect(txt).toMatch(/\t\d+,\d+\t/);
    const query = '?subject_column=pat&sample_column=time.point&replicate_column=rep&value_column=meas';
    const res = await postFile(txt, 'example-study.txt', query);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<EstimationResponse>();
    expect(body.estimates).toEqual(csv.estimates);
    expect(body.input.format).toBe('tsv');
    expect(body.input.notes.join(' ')).toMatch(
      /^.*Decimal commas read as decimal points in \d+ values \(e\.g\. "5,1" as 5\.1\)/,
    );
    // A semicolon CSV with decimal commas, named .csv, and a comma CSV named .txt.
    const semi = await postFile(txt.replace(/\t/g, ';'), 'study.csv', query);
    expect(semi.statusCode, semi.body).toBe(200);
    expect(semi.json<EstimationResponse>().estimates).toEqual(csv.estimates);
    const commaTxt = await postFile(toCsv(rows), 'study.txt');
    expect(commaTxt.statusCode, commaTxt.body).toBe(200);
    expect(commaTxt.json<EstimationResponse>().estimates).toEqual(csv.estimates);
    expect(commaTxt.json<EstimationResponse>().input.notes.join(' ')).not.toContain('Decimal commas');
    // In a comma-separated file "5,1" is two cells, never a decimal.
  });

  it('missing values and an unbalanced design are reported, not filled in', async () => {
    const rows = caseRows('unbalanced');
    const body = (await postCsv(toCsv(rows))).json<EstimationResponse>();
    const missing = rows.filter((r) => r.value === null).length;
    expect(missing).toBeGreaterThan(0);
    expect(body.input.missing.count).toBe(missing);
    expect(body.counts_before.missing).toBe(missing);
    const first = rows.findIndex((r) => r.value === null);
    expect(body.input.missing.rows[0]).toEqual({
      row: first + 2,
      subject: rows[first]!.subject,
      sample: rows[first]!.sample,
      replicate: String(rows[first]!.replicate),
    });
    expect(body.input.design.balanced).toBe(false);
    expect(body.input.design.samples_with_one_replicate).toBeGreaterThan(0);
    expect(body.input.design.samples_per_subject.min).toBeLessThan(body.input.design.samples_per_subject.max);
  });

  it('the balanced case is reported balanced; options from the query are used and echoed', async () => {
    const rows = caseRows('balanced');
    const res = await postCsv(toCsv(rows), '?alpha=0.01&reed=false&replicate_outlier=none');
    const body = res.json<EstimationResponse>();
    expect(body.input.design.balanced).toBe(true);
    expect(body.options).toEqual({
      alpha: 0.01,
      replicate_outlier: 'none',
      sample_outlier: true,
      reed: false,
    });
    expect(withoutReport(body)).toEqual(
      engine(rows, { alpha: 0.01, reed: false, replicate_outlier: 'none' }),
    );
  });

  it('groups are estimated separately as well as together (strata)', async () => {
    const rows = caseRows('grouped');
    const body = (await postCsv(toCsv(rows))).json<EstimationResponse>();
    expect(Object.keys(body.strata ?? {}).length).toBeGreaterThanOrEqual(2);
    expect(body.strata).toEqual(engine(rows).strata);
  });

  it('an explicit column mapping reads other header names; without a replicate column rows are numbered', async () => {
    const rows = caseRows('balanced');
    const text = ['ID;Tp;Conc', ...rows.map((r) => `${r.subject};${r.sample};${r.value}`)].join('\n');
    const res = await postCsv(text, '?subject_column=ID&sample_column=Tp&value_column=Conc');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<EstimationResponse>();
    expect(body.input.columns).toMatchObject({ subject: 'ID', sample: 'Tp', value: 'Conc', replicate: null });
    expect(body.input.notes.join(' ')).toMatch(/numbered as replicates/);
    expect(body.estimates).toEqual((await postCsv(toCsv(rows))).json<EstimationResponse>().estimates);
  });

  it('is public, stores nothing and sits in the heavy rate class', async () => {
    const route = ctx.app.registeredRoutes.find((r) => r.url === URL_ && r.method === 'POST');
    expect(route).toMatchObject({ access: 'public' });
    expect(costOfRoute(createEstimation)).toBe('heavy');
  });

  it('serves the template (CSV and xlsx) and the template estimates as uploaded', async () => {
    const csv = await ctx.app.inject({ method: 'GET', url: `${URL_}/template.csv` });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/text\/csv/);
    expect(csv.body.split(/\r\n/)[0]).toBe('subject,sample,replicate,value,group,date');
    const xlsx = await ctx.app.inject({ method: 'GET', url: `${URL_}/template.xlsx` });
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-type']).toMatch(/spreadsheetml/);
    const a = (await postCsv(csv.body)).json<EstimationResponse>();
    const b = (await postFile(xlsx.rawPayload, 'template.xlsx')).json<EstimationResponse>();
    expect(b.estimates).toEqual(a.estimates);
    expect(b.input.sampling).toEqual(a.input.sampling);
    // Uploaded unchanged, the example shows every step: unbalanced, a missing result, one exclusion.
    expect(a.counts_before).toEqual({ subjects: 12, samples: 93, results: 185, missing: 1 });
    expect(a.input.design).toMatchObject({
      balanced: false,
      samples_per_subject: { min: 5, max: 8 },
      replicates_per_sample: { min: 1, max: 2 },
      samples_with_one_replicate: 1,
    });
    expect(a.excluded.map((x) => [x.step, x.subject, x.sample])).toEqual([['replicate_cochran', 'S09', '3']]);
    expect(a.checks.steady_state).not.toBeNull();
    expect(a.checks.normality.per_subject.tested).toBe(12);
    expect(a.checks.normality.subject_means).not.toBeNull();
    expect(a.checks.homogeneity.bartlett).not.toBeNull();
    expect(a.checks.homogeneity.cochran).not.toBeNull();
    for (const set of [a.estimates.classic, a.estimates.cv_anova]) {
      expect([set.cva, set.cvi, ...set.cva_ci, ...set.cvi_ci].every((x) => x !== null && x > 0)).toBe(true);
    }
    expect(
      [a.estimates.classic.cvg, ...a.estimates.classic.cvg_ci!].every((x) => typeof x === 'number' && x > 0),
    ).toBe(true);
    expect(a.derived.ii).not.toBeNull();
    expect(a.derived.rcv.up).not.toBeNull();
    expect(Object.keys(a.strata ?? {})).toEqual(['F', 'M']);
    for (const stratum of Object.values(a.strata ?? {})) expect(stratum).not.toHaveProperty('error');
    // The dates: weekly morning samples, the longest subject followed for 7 weeks.
    expect(a.input.sampling).toEqual({
      dated_samples: 93,
      unread: 0,
      interval_days: 7,
      span_days: 49,
      earliest_time: '07:30',
      latest_time: '09:15',
    });
    expect((await ctx.app.inject({ method: 'GET', url: `${URL_}/template.pdf` })).statusCode).toBe(400);
  });
});

describe('POST /api/v1/estimations?format=xlsx', () => {
  it('answers the same report as a workbook', async () => {
    const rows = caseRows('outliers');
    const json = (await postCsv(toCsv(rows))).json<EstimationResponse>();
    const res = await postCsv(toCsv(rows), '?format=xlsx');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/spreadsheetml/);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    expect(wb.worksheets.map((w) => w.name)).toEqual([
      'Estimates',
      'Exclusions',
      'Checks',
      'Results',
      'Input',
    ]);
    const est = wb.getWorksheet('Estimates')!;
    expect(est.getRow(2).getCell(2).value).toBe(json.estimates.classic.cva);
    expect(est.getRow(2).getCell(5).value).toBe(json.estimates.classic.cvi);
    expect(wb.getWorksheet('Exclusions')!.actualRowCount).toBe(json.excluded.length + 1);
  });
});

describe('POST /api/v1/estimations: bad input answers 4xx with a message', () => {
  const rows = caseRows('balanced');
  it.each([
    ['an empty CSV body', () => postCsv(''), 400, /empty/],
    ['no body at all', () => post(''), 400, /./],
    ['a header without rows', () => postCsv('subject,sample,replicate,value\n'), 400, /no rows/],
    ['wrong columns', () => postCsv('a,b,c\n1,2,3\n'), 400, /No subject, sample, value column/],
    [
      'a mapped column not in the header',
      () => postCsv(toCsv(rows), '?value_column=Glucose'),
      400,
      /"Glucose" is not in the header/,
    ],
    [
      'a non-number value',
      () => postCsv('subject,sample,replicate,value\nA,1,1,abc\n'),
      400,
      /Row 2, column value: "abc" is not a number/,
    ],
    [
      'an empty subject',
      () => postCsv('subject,sample,replicate,value\n,1,1,3\n'),
      400,
      /Row 2.*subject is empty/,
    ],
    ['JSON without rows', () => post({ data: [] }), 400, /No "rows" array/],
    [
      'a JSON row with a text value',
      () => post({ rows: [{ subject: 'A', sample: '1', value: 'x' }] }),
      400,
      /rows\.1\.value/,
    ],
    [
      'a nested JSON row',
      () => post({ rows: [{ subject: { a: 1 }, sample: '1', value: 1 }] }),
      400,
      /Row 1: must be an object/,
    ],
    [
      'bad options',
      () => post({ rows: [{ subject: 'A', sample: '1', value: 1 }], options: { alpha: 2 } }),
      400,
      /options\.alpha/,
    ],
    [
      'deep JSON',
      () => post('['.repeat(5000) + ']'.repeat(5000), { 'content-type': 'application/json' }),
      400,
      /nests deeper/,
    ],
    ['a bad query option', () => postCsv(toCsv(rows), '?replicate_outlier=all'), 400, /./],
    ['half a bootstrap', () => postCsv(toCsv(rows), '?bootstrap_seed=1'), 400, /both bootstrap/],
    [
      'a malformed .xlsx',
      () => postFile(Buffer.concat([Buffer.from([0x50, 0x4b, 3, 4]), Buffer.alloc(200, 7)]), 'x.xlsx'),
      400,
      /not a readable|damaged|zip|xlsx/i,
    ],
    [
      'an old .xls',
      () => postFile(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 1, 2, 3, 4]), 'x.xls'),
      400,
      /\.xls|xlsx/,
    ],
    [
      'a multipart without a file part',
      () =>
        post(
          multipart('x', 'a.csv').payload.toString().replace('name="file"', 'name="other"'),
          multipart('x', 'a.csv').headers,
        ),
      400,
      /No file was sent/,
    ],
    [
      'all results 0 (issue 43.5)',
      () => postCsv(toCsv(rows.map((r) => ({ ...r, value: 0 })))),
      422,
      /mean of the results is 0 .*CV \(SD divided by the mean\) is undefined/,
    ],
    [
      'results of 1e308 (issue 43.5)',
      () => post({ rows: rows.map((r) => ({ ...r, value: 1e308 })) }),
      422,
      /1e\+308 \(subject .*\) is too large to compute with/,
    ],
    [
      'a design that cannot be estimated',
      () => postCsv('subject,sample,replicate,value\nA,1,1,3\nA,1,2,4\n'),
      422,
      /./,
    ],
  ])('%s', async (_name, send, status, message) => {
    const res = await send();
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json<{ message: string }>().message).toMatch(message);
  });

  it('too many rows: 422 for CSV and JSON, before any estimation', async () => {
    const n = ESTIMATION_MAX_ROWS + 1;
    const csv = [
      'subject,sample,replicate,value',
      ...Array.from({ length: n }, (_, i) => `S${i % 50},${i % 7},${i},${i}`),
    ].join('\n');
    const a = await postCsv(csv);
    expect(a.statusCode, a.body).toBe(422);
    expect(a.json<{ message: string }>().message).toMatch(/at most 10,000/);
    const b = await post({
      rows: Array.from({ length: n }, (_, i) => ({ subject: 'A', sample: String(i), value: 1 })),
    });
    expect(b.statusCode).toBe(422);
    expect(b.json<{ message: string }>().message).toMatch(/10,001 rows: at most 10,000/);
  });

  it('too many bytes: 413 past the server-wide body limit (text, JSON) and past the file limit', async () => {
    const big = `subject,sample,replicate,value\n${'A,1,1,1.000000000000000000000000000000\n'.repeat(40_000)}`;
    const res = await postCsv(big);
    expect(res.statusCode).toBe(413);
    expect(res.json<{ message: string }>().message).toBe('The request body is too large (1 MB at most)');
    const file = await postFile(Buffer.alloc(3 * 1024 * 1024, 65), 'big.csv');
    expect(file.statusCode).toBe(413);
    expect(file.json<{ message: string }>().message).toMatch(/too large/);
  });

  // The size is checked before anything parses the file (issue 43.5, decision 086): a file just
  // past the limit answers 413 whether it would parse or not, and the same file just under the
  // limit gets its parse error (or its answer).
  describe('the size before the parse, for every kind of body', () => {
    const LIMIT = ESTIMATION_MAX_FILE_BYTES;
    const header = 'subject,sample,replicate,value\n';
    const validCsv = (bytes: number) => {
      const line = 'A,1,1,1.5\n';
      return Buffer.from(header + line.repeat(Math.ceil((bytes - header.length) / line.length))).subarray(
        0,
        bytes,
      );
    };
    const kinds: [string, (bytes: number) => Buffer, string, RegExp][] = [
      ['a CSV that reads', validCsv, 'x.csv', /rows: at most 10,000/],
      [
        'bytes that are no text',
        (n) => Buffer.alloc(n, 0xff),
        'x.csv',
        /neither an \.xlsx workbook nor UTF-8/,
      ],
      [
        'a damaged workbook',
        (n) => Buffer.concat([Buffer.from([0x50, 0x4b, 3, 4]), Buffer.alloc(n - 4, 7)]),
        'x.xlsx',
        /not a readable \.xlsx|incomplete/,
      ],
    ];
    it.each(kinds)(
      '%s: 413 just past the file limit, its own answer just under it',
      async (_k, make, name, under) => {
        for (const bytes of [LIMIT + 1, Math.round(LIMIT * 1.15)]) {
          const res = await postFile(make(bytes), name);
          expect(res.statusCode, `${bytes} bytes: ${res.body}`).toBe(413);
          expect(res.json<{ message: string }>().message).toBe(
            'The file is too large (2 MB at most): split the study by analyte',
          );
        }
        const res = await postFile(make(LIMIT - 64 * 1024), name);
        expect([400, 422]).toContain(res.statusCode);
        expect(res.json<{ message: string }>().message).toMatch(under);
      },
    );
    it.each([
      ['valid CSV text', () => postCsv(validCsv(1024 * 1024 + 10).toString())],
      [
        'JSON that does not parse',
        () => post('{"rows": [' + ' '.repeat(1024 * 1024), { 'content-type': 'application/json' }),
      ],
      [
        'valid JSON',
        () =>
          post({
            rows: Array.from({ length: 9000 }, () => ({ subject: 'A'.repeat(100), sample: '1', value: 1 })),
          }),
      ],
    ])('%s past the body limit: 413', async (_k, send) => {
      const res = await send();
      expect(res.statusCode, res.body.slice(0, 200)).toBe(413);
      expect(res.json<{ message: string }>().message).toBe('The request body is too large (1 MB at most)');
    });
  });
});
