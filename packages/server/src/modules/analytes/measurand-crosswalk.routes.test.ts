import {
  CROSSWALK_HEADER,
  CrosswalkPreviewSchema,
  MeasurandCodesSchema,
  importMeasurandCodes,
  v1ListMeasurands,
} from '@bvdb/contract';
import { LOINC_NOTICE } from '@bvdb/domain';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analytes, auditLog } from '../../db/schema.js';
import { createSignedInTestApp, type SignedIn } from '../../test/sign-in.js';
import type { TestContext } from '../../test/test-app.js';

// The crosswalk file (issue 45.1, decision 093): exported for anyone, imported by curators with a
// preview, then a confirm that applies what the preview showed.

let ctx: TestContext;
let s: SignedIn;
beforeAll(async () => {
  ({ ctx, s } = await createSignedInTestApp());
});
afterAll(async () => ctx.close());

const LOINC = 'http://loinc.org';
const idOf = async (displayName: string) =>
  (await ctx.database.db.select().from(analytes).where(eq(analytes.displayName, displayName)))[0]!.id;
const codesOf = async (id: number) =>
  MeasurandCodesSchema.parse((await ctx.app.inject({ url: `/api/v1/measurands/${id}/codes` })).json());
const exportCsv = () => ctx.app.inject({ url: '/api/v1/measurand-codes.csv' });
const preview = (text: string, headers: Record<string, string> = s.headers) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/v1/measurand-codes/import/preview',
    payload: { text },
    headers,
  });
const confirm = (text: string, plan: string, headers: Record<string, string> = s.headers) =>
  ctx.app.inject({ method: 'POST', url: '/api/v1/measurand-codes/import', payload: { text, plan }, headers });
const previewOf = async (text: string) => {
  const res = await preview(text);
  expect(res.statusCode, res.body).toBe(200);
  return CrosswalkPreviewSchema.parse(res.json());
};
const file = (...lines: string[]) => [CROSSWALK_HEADER, ...lines].join('\r\n');

describe('the crosswalk export', () => {
  it('is every code as CSV for anyone, with LOINC’s notice, and reads back as unchanged', async () => {
    const res = await exportCsv();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toContain('bv_measurand_codes.csv');
    expect(decodeURIComponent(String(res.headers['bvdb-loinc-notice']))).toBe(LOINC_NOTICE);
    const lines = res.body.split('\r\n');
    expect(lines[0]).toBe('system,code,display,measurand,matrix,ucum_unit,source');
    expect(lines.find((l) => l.startsWith('http://loinc.org,2951-2,'))).toMatch(
      /^http:\/\/loinc\.org,2951-2,Sodium \[Moles\/volume\] in Serum or Plasma,Sodium,Serum\/plasma,mmol\/L,"ARUP/,
    );
    // Two scales of one quantity are two lines, never one.
    expect(lines.filter((l) => /^http:\/\/npu-terminology\.org,NPU0(9356|3688),,Urate/.test(l))).toHaveLength(
      2,
    );

    const back = await previewOf(res.body);
    expect(back.counts).toEqual({ add: 0, change: 0, unchanged: lines.length - 2, refused: 0 });
  });
});

describe('the crosswalk import', () => {
  it('is for curators only', async () => {
    const text = file(`LOINC,14749-6,,Glucose,Serum/plasma,mmol/L,loinc.org/14749-6`);
    expect((await preview(text, {})).statusCode).toBe(401);
    expect((await confirm(text, 'x', {})).statusCode).toBe(401);
  });

  it('previews each line with what importing does and why a line is refused, saving nothing', async () => {
    const [glucose, sodium, potassium] = [
      await idOf('Glucose'),
      await idOf('Sodium'),
      await idOf('Potassium'),
    ];
    const before = await codesOf(sodium);
    const text = file(
      'LOINC,14749-6,Glucose [Moles/volume] in Serum or Plasma,glucose,Serum/plasma,mmol/L,https://loinc.org/14749-6/',
      'http://loinc.org,2951-2,Sodium (new display),Sodium,Serum/plasma,mmol/L,"ARUP, again"',
      'LOINC,2823-3,,Sodium,Serum/plasma,mmol/L,',
      'LOINC,2947-0,,Natrium,Serum/plasma,mmol/L,',
      'LOINC,2947-0,,Sodium,Blood plasma,mmol/L,',
      'LOINC,2951-3,,Sodium,Serum/plasma,mmol/L,',
      'ICD-10,E87.1,,Sodium,,,',
      'LOINC,14749-6,,Glucose,,,',
      'http://npu-terminology.org,NPU03429,,Sodium,Plasma,mmol/mol,',
      'SNOMED CT,104934005,,Sodium,,,',
      '',
    );
    const p = await previewOf(text);
    expect(p.lines.map((l) => [l.line, l.status, l.message])).toEqual([
      [2, 'add', null],
      [
        3,
        'change',
        'Changes display "Sodium [Moles/volume] in Serum or Plasma" → "Sodium (new display)", source',
      ],
      [
        4,
        'refused',
        `http://loinc.org|2823-3 is already a code of another measurand: Potassium (id ${potassium}). A code names one measurand; remove it there first.`,
      ],
      [5, 'refused', 'No measurand is called "Natrium"'],
      [6, 'refused', 'No matrix is called "Blood plasma"'],
      [7, 'refused', '"2951-3" is not a LOINC code: its check digit would be 2'],
      [8, 'refused', '"ICD-10" is not a code system bvdb knows: use LOINC, NPU or SNOMED CT (or its URI)'],
      [9, 'refused', 'http://loinc.org|14749-6 is on line 2 too: a code names one measurand, keep one line'],
      [
        10,
        'refused',
        'http://npu-terminology.org|NPU03429 names the scale mmol/L: a code names one scale, so a line for mmol/mol needs that scale’s own code (correct a mistaken unit on the measurand’s page)',
      ],
      [11, 'add', null],
    ]);
    expect(p.lines[0]).toMatchObject({ system: LOINC, measurand_id: glucose, matrix: 'Serum/plasma' });
    expect(p.counts).toEqual({ add: 2, change: 1, unchanged: 0, refused: 7 });
    expect(p.notice).toBe(LOINC_NOTICE);
    expect(await codesOf(sodium)).toEqual(before);
  });

  it('refuses a file that is not a crosswalk with a message', async () => {
    const notCsv = await preview('TY  - JOUR\nTI  - A paper\nER  -\n');
    expect(notCsv.statusCode).toBe(400);
    expect(notCsv.json<{ message: string }>().message).toBe(
      'This is not a crosswalk file: its first line must be the header system,code,display,measurand,matrix,ucum_unit,source, as the export writes it',
    );
    const headerOnly = await preview(`${CROSSWALK_HEADER}\r\n`);
    expect(headerOnly.statusCode).toBe(400);
    expect(headerOnly.json<{ message: string }>().message).toBe('The file has its header and no code');
    expect((await preview('')).statusCode).toBe(400);
  });

  it('applies the preview in one transaction with an audit row per measurand, and refuses a stale plan', async () => {
    const [glucose, sodium] = [await idOf('Glucose'), await idOf('Sodium')];
    const text = file(
      'LOINC,15074-8,Glucose [Moles/volume] in Blood,Glucose,Whole blood,mmol/L,https://loinc.org/15074-8/',
      'SNOMED CT,271649006,,Sodium,,,',
      'LOINC,2823-3,,Sodium,Serum/plasma,mmol/L,',
    );
    const p = await previewOf(text);
    expect(p.counts).toEqual({ add: 2, change: 0, unchanged: 0, refused: 1 });
    const versions = [(await codesOf(glucose)).version, (await codesOf(sodium)).version];

    expect((await confirm(text, 'not-the-plan')).statusCode).toBe(409);
    const res = await confirm(text, p.plan);
    expect(res.statusCode, res.body).toBe(200);
    expect(importMeasurandCodes.responses[200].parse(res.json())).toEqual({
      counts: p.counts,
      measurand_ids: [glucose, sodium].sort((a, b) => a - b),
    });
    const g = await codesOf(glucose);
    expect(g.version).toBe(versions[0]! + 1);
    expect(g.codes).toContainEqual(
      expect.objectContaining({ system: LOINC, code: '15074-8', matrix: 'Whole blood', ucum_unit: 'mmol/L' }),
    );
    expect((await codesOf(sodium)).codes.map((c) => c.code)).toContain('271649006');
    // A laboratory system finds the measurand by the imported code.
    const found = await ctx.app.inject({ url: '/api/v1/measurands?loinc=15074-8' });
    expect(v1ListMeasurands.responses[200].parse(found.json()).data.map((m) => m.id)).toEqual([glucose]);
    const audit = await ctx.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'measurand'), eq(auditLog.entityId, glucose)));
    expect(audit.at(-1)!.after).toMatchObject({ via: 'crosswalk import' });
    expect(JSON.stringify(audit.at(-1)!.after)).toContain('http://loinc.org|15074-8');

    // The same plan again: the codes are no longer what was previewed.
    const again = await confirm(text, p.plan);
    expect(again.statusCode).toBe(409);
    expect(again.json<{ message: string }>().message).toBe(
      'The codes changed since your preview (or the file did); nothing was imported. Preview the file again.',
    );
    expect((await previewOf(text)).counts).toEqual({ add: 0, change: 0, unchanged: 2, refused: 1 });
  });
});
