import fs from 'node:fs';
import { MenuResponseSchema } from '@bvdb/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/test-app.js';

// Issue 42.1: a realistic 20-test menu, typed as a laboratory system exports it, matched at first.
const MENU = fs.readFileSync(new URL('../../test/fixtures/lab-menu-20.csv', import.meta.url), 'utf8');

/** What each line means (a person reading the menu): the measurand and the matrix of its estimate. */
const MEANT: [string, string][] = [
  ['Sodium', 'Serum'],
  ['Potassium', 'Serum'],
  ['Chloride', 'Serum'],
  ['Urea', 'Serum'],
  ['Creatinine', 'Serum'],
  ['Glucose', 'Serum/Plasma (pooled)'],
  ['Calcium (total)', 'Serum'],
  ['Cholesterol (total)', 'Serum'],
  ['HDL cholesterol', 'Serum'],
  ['Triglycerides', 'Serum'],
  ['Alkaline phosphatase (ALP)', 'Serum'],
  ['Alanine aminotransferase (ALT)', 'Serum'],
  ['Gamma-glutamyltransferase (GGT)', 'Serum'],
  ['Bilirubin (total)', 'Serum'],
  ['Urate (uric acid)', 'Serum'],
  ['C-reactive protein (CRP)', 'Serum'],
  ['Aspartate aminotransferase (AST)', 'Serum'],
  ['Free thyroxine (FT4)', 'Serum'],
  ['Haemoglobin', 'Whole Blood EDTA'],
  ['Ferritin', 'Serum'],
];

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(async () => ctx.close());

describe('POST /api/v1/menu: the names a laboratory writes (issue 42.1)', () => {
  it('matches at least 19 of the 20 lines of a lab system export at first, none wrongly, numbered 1…20', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/menu',
      headers: { 'content-type': 'text/csv' },
      payload: MENU,
    });
    expect(res.statusCode, res.body).toBe(200);
    const answer = MenuResponseSchema.parse(res.json());
    expect(answer.tests.map((t) => t.line)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    const wrong = answer.tests.filter(
      (t, i) =>
        t.status === 'matched' &&
        (t.match!.display_name !== MEANT[i]![0] || t.match!.matrix !== MEANT[i]![1]),
    );
    expect(wrong.map((t) => `${t.input.name} → ${t.match!.display_name}, ${t.match!.matrix}`)).toEqual([]);
    const refused = answer.tests.filter((t) => t.status !== 'matched');
    expect(answer.summary.matched).toBeGreaterThanOrEqual(19);
    // The names the issue found refused are each matched to the measurand meant.
    for (const name of ['Alkaline phosphatase', 'Calcium', 'Cholesterol', 'Glucose']) {
      const t = answer.tests.find((x) => x.input.name === name)!;
      expect(t.status, `${name}: ${t.why}`).toBe('matched');
    }
    // "Free T4" is Free thyroxine (FT4), which has no estimate in the demo data yet: the line says so.
    const ft4 = answer.tests.find((x) => x.input.name === 'Free T4')!;
    expect(ft4.why).toBe('The measurand Free thyroxine (FT4) has no estimate yet');
    expect(refused.every((t) => t === ft4)).toBe(true);
  });

  it('a line sharing a word with measurands but naming none is offered them; two that fit are ambiguous', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/menu',
      payload: { tests: [{ name: 'Troponin' }, { name: 'Urea (BUN or ALT)' }, { name: 'Free T4 index' }] },
    });
    const [troponin, twoFit, index] = MenuResponseSchema.parse(res.json()).tests;
    expect(troponin!.status).toBe('unmatched');
    expect(troponin!.candidates.map((c) => c.display_name)).toContain('Cardiac troponin I (hs)');
    expect(troponin!.candidates.every((c) => /troponin/i.test(c.display_name))).toBe(true);
    expect(twoFit!.status).toBe('ambiguous');
    expect(twoFit!.why).toBe('2 measurands have this name');
    expect(new Set(twoFit!.candidates.map((c) => c.display_name))).toEqual(
      new Set(['Urea', 'Alanine aminotransferase (ALT)']),
    );
    // A name sharing words with measurands is offered those with an estimate, the most words first.
    expect(index!.status).toBe('unmatched');
    expect(index!.candidates.length).toBeGreaterThan(0);
  });
});
