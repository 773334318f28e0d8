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
  ['Thyroid stimulating hormone (TSH)', 'Serum'],
  ['Free thyroxine (FT4)', 'Serum'],
  ['Haemoglobin', 'Whole blood (EDTA)'],
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
        t.status === 'matched' && (t.match!.display_name !== MEANT[i]![0] || t.match!.matrix !== MEANT[i]![1]),
    );
    expect(wrong.map((t) => `${t.input.name} → ${t.match!.display_name}, ${t.match!.matrix}`)).toEqual([]);
    const refused = answer.tests.filter((t) => t.status !== 'matched');
    expect(
      refused.map((t) => `${t.input.name}: ${t.why}`),
      'at most one line refused',
    ).toHaveLength(Math.min(refused.length, 1));
    expect(answer.summary.matched).toBeGreaterThanOrEqual(19);
    // The names the issue found refused are each matched to the measurand meant.
    for (const name of ['Alkaline phosphatase', 'Calcium', 'Cholesterol', 'Free T4', 'Glucose']) {
      const t = answer.tests.find((x) => x.input.name === name)!;
      expect(t.status, `${name}: ${t.why}`).toBe('matched');
    }
    // Every line refused has measurands to choose from.
    for (const t of refused) expect(t.candidates.length, t.input.name).toBeGreaterThan(0);
  });

  it('a line sharing a word with measurands but naming none is offered them; two that fit are ambiguous', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/menu',
      payload: { tests: [{ name: 'Troponin' }, { name: 'Thyroxine (FT4 or T4)' }, { name: 'Free T4 index' }] },
    });
    const [troponin, thyroxine, index] = MenuResponseSchema.parse(res.json()).tests;
    expect(troponin!.status).toBe('unmatched');
    expect(troponin!.candidates.map((c) => c.display_name)).toContain('Cardiac troponin I (hs)');
    expect(troponin!.candidates.every((c) => /troponin/i.test(c.display_name))).toBe(true);
    expect(thyroxine!.status).toBe('ambiguous');
    expect(thyroxine!.candidates.map((c) => c.display_name).sort()).toEqual([
      'Free thyroxine (FT4)',
      'Total thyroxine (T4)',
    ]);
    expect(index!.status).toBe('unmatched');
    expect(index!.candidates[0]!.display_name).toBe('Free thyroxine (FT4)');
  });
});
