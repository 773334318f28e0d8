import { describe, expect, it } from 'vitest';
import { estimateInWords, menuChanges, menuTestChanges, type MenuKeptTest } from './menu-changes.js';

const kept = (over: Partial<MenuKeptTest> = {}): MenuKeptTest => ({
  line: 2,
  label: 'Sodium',
  match: { measurand_id: 7, display_name: 'Sodium', matrix: 'Serum' },
  cvi: { estimate_id: 11, version: 1, median: 0.6, lower: 0.5, upper: 0.7, n: 12 },
  cvg: { estimate_id: 12, version: 1, median: 0.7, lower: 0.6, upper: 0.8, n: 10 },
  specs: {
    optimal: { imprecision: 0.15, bias: 0.11, total_error: 0.36, mau: 0.3 },
    desirable: { imprecision: 0.3, bias: 0.23, total_error: 0.73, mau: 0.6 },
    minimum: { imprecision: 0.45, bias: 0.35, total_error: 1.09, mau: 0.9 },
  },
  aps_met: { imprecision: 'desirable', bias: 'none', total_error: 'minimum', mau: 'desirable' },
  sigma: { optimal: 0.5, desirable: 1.6, minimum: 2.7 },
  rcv: { up: 2.1, down: -2.0 },
  ii: 0.86,
  ii_with_cva: 0.9,
  prri_useful: false,
  ...over,
});

describe('menuChanges: what differs between a kept menu and today (issue 32.4)', () => {
  it('is empty when nothing changed, and when a number moved below the sheet’s rounding', () => {
    expect(menuChanges([kept()], [kept()])).toEqual([]);
    const t = kept();
    expect(menuChanges([t], [{ ...t, rcv: { up: 2.1000001, down: -2.0000004 }, ii: 0.86001 }])).toEqual([]);
  });

  it('names a new estimate version with before → now, the moved judgement, sigma, RCV and II', () => {
    const now = kept({
      cvi: { estimate_id: 11, version: 2, median: 0.8, lower: 0.6, upper: 1.0, n: 13 },
      aps_met: { imprecision: 'optimal', bias: 'none', total_error: 'minimum', mau: 'desirable' },
      sigma: { optimal: 0.5, desirable: 1.9, minimum: 2.7 },
      rcv: { up: 2.6, down: -2.5 },
      ii: 1.14,
    });
    const changes = menuChanges([kept()], [now]);
    const byWhat = new Map(changes.map((c) => [c.what, c]));
    expect(byWhat.get('CVI')).toMatchObject({
      kind: 'estimate',
      before: '0.6 % (0.5–0.7 %, N 12, version 1)',
      now: '0.8 % (0.6–1.0 %, N 13, version 2)',
    });
    expect(byWhat.get('Imprecision meets')).toMatchObject({ before: 'desirable', now: 'optimal' });
    expect(byWhat.get('Sigma (desirable)')).toMatchObject({ before: '1.60', now: '1.90' });
    expect(byWhat.get('RCV up')).toMatchObject({ before: '2.1 %', now: '2.6 %' });
    expect(byWhat.get('II')).toMatchObject({ before: '0.86', now: '1.14' });
    expect(byWhat.has('CVG')).toBe(false);
    expect(byWhat.has('Sigma (optimal)')).toBe(false);
    expect(changes.every((c) => c.line === 2 && c.test === 'Sodium')).toBe(true);
  });

  it('names a new version even when its numbers are the same as shown', () => {
    const now = kept({ cvg: { estimate_id: 12, version: 3, median: 0.7, lower: 0.6, upper: 0.8, n: 10 } });
    const [c] = menuChanges([kept()], [now]);
    expect(c).toMatchObject({ kind: 'estimate', what: 'CVG' });
    expect(c!.before).toContain('version 1');
    expect(c!.now).toContain('version 3');
  });

  it('says a match that no longer exists, and nothing else for that test', () => {
    const now = kept({ match: null, cvi: null, cvg: null, specs: null, aps_met: null, sigma: null });
    expect(menuChanges([kept()], [now])).toEqual([
      {
        line: 2,
        test: 'Sodium',
        kind: 'match',
        what: 'Match',
        before: 'Sodium in Serum',
        now: 'no longer matched',
      },
    ]);
    // A line missing from today's sheet is the same: no longer matched.
    expect(menuChanges([kept()], [])[0]).toMatchObject({ kind: 'match', now: 'no longer matched' });
  });

  it('names a line the lab called otherwise by its name and the measurand', () => {
    const [c] = menuTestChanges(kept({ label: 'NA+' }), kept({ label: 'NA+', ii: 0.5 }));
    expect(c!.test).toBe('NA+ (Sodium)');
  });

  it('an unmatched test that stays unmatched has no change', () => {
    const un = kept({
      match: null,
      cvi: null,
      cvg: null,
      specs: null,
      aps_met: null,
      sigma: null,
      rcv: null,
      ii: null,
      ii_with_cva: null,
      prri_useful: null,
    });
    expect(menuChanges([un], [un])).toEqual([]);
  });

  it('writes an estimate without limits or version plainly', () => {
    expect(
      estimateInWords({ estimate_id: null, version: null, median: 5.25, lower: null, upper: null, n: null }),
    ).toBe('5.3 %');
    expect(estimateInWords(null)).toBe('none');
  });
});
