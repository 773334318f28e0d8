import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { indexOfIndividuality, indexOfIndividualityWithCva } from './applications.js';
import { calculateAps } from './aps.js';
import { DomainInputError } from './errors.js';
import { MENU_CANDIDATES_SHOWN, MenuCatalogue, matchMenuLine } from './menu-match.js';
import { judgeAgainstLevels, labTotalError, menuTest, sigmaMetric } from './menu.js';
import { rcvAsymmetric } from './rcv.js';
import type { WorkbenchEstimate } from './workbench.js';

const est = (
  median: number,
  lower: number | null = null,
  upper: number | null = null,
): WorkbenchEstimate => ({
  median,
  lower,
  upper,
  limits: lower === null ? null : '95 % CI',
});

const base = { probability: 0.95, te: null };

describe('labTotalError: TE = |bias| + 1.65·CVA unless the lab gives its own', () => {
  it('computes from CVA and the size of the bias', () => {
    expect(labTotalError(2, -1.5, null)).toBeCloseTo(1.5 + 3.3, 10);
  });
  it('keeps the lab TE when given, null when CVA or bias is missing', () => {
    expect(labTotalError(2, 1, 9)).toBe(9);
    expect(labTotalError(null, 1, null)).toBeNull();
    expect(labTotalError(2, null, null)).toBeNull();
  });
});

describe('judgeAgainstLevels: the best level a value meets', () => {
  const spec = { optimal: 1, desirable: 2, minimum: 3 } as const;
  it.each([
    [0.5, 'optimal'],
    [1, 'optimal'],
    [1.5, 'desirable'],
    [3, 'minimum'],
    [3.01, 'none'],
  ])('%s → %s', (v, level) => expect(judgeAgainstLevels(v, (l) => spec[l])).toBe(level));
  it('cannot judge without a value or a specification', () => {
    expect(judgeAgainstLevels(null, (l) => spec[l])).toBeNull();
    expect(judgeAgainstLevels(1, () => null)).toBeNull();
  });
});

describe('sigmaMetric = (TEa − |bias|)/CVA', () => {
  it('a worked example: TEa 10, bias −2, CVA 2 → 4', () => expect(sigmaMetric(10, -2, 2)).toBe(4));
  it('null without CVA > 0 or a bias', () => {
    expect(sigmaMetric(10, 1, 0)).toBeNull();
    expect(sigmaMetric(10, null, 2)).toBeNull();
  });
});

describe('menuTest: one test of a laboratory menu', () => {
  // CVI 6, CVG 10: desirable imprecision 3, bias 0.25·√136 = 2.915, TE 7.865, MAU 6.
  const cvi = est(6, 5, 7);
  const cvg = est(10, 8, 12);
  it('judges each measure and gives sigma, RCV and II from the formulas', () => {
    const r = menuTest({ ...base, cvi, cvg, cva: 2.5, bias: -1 });
    const aps = calculateAps(6, 10);
    expect(r.specs.desirable.totalError.value).toBeCloseTo(aps.desirable.totalError, 12);
    expect(r.apsMet.imprecision).toBe('desirable'); // 2.5 ≤ 3, > 1.5
    expect(r.apsMet.bias).toBe('optimal'); // 1 ≤ 1.458
    expect(r.lab.totalError).toBeCloseTo(1 + 1.65 * 2.5, 12);
    expect(r.lab.teSource).toBe('computed');
    expect(r.lab.mau).toBe(5); // U = 2·2.5 ≤ 6 (desirable), > 3 (optimal)
    expect(r.apsMet.mau).toBe('desirable');
    for (const level of ['optimal', 'desirable', 'minimum'] as const) {
      expect(r.sigma?.[level].value).toBeCloseTo((aps[level].totalError - 1) / 2.5, 12);
    }
    expect(r.rcv?.up.value).toBeCloseTo(rcvAsymmetric(6, 2.5, r.z).up, 12);
    expect(r.rcv?.down.value).toBeCloseTo(rcvAsymmetric(6, 2.5, r.z).down, 12);
    expect(r.ii.value).toBeCloseTo(indexOfIndividuality(6, 10), 12);
    expect(r.iiWithCva.value).toBeCloseTo(indexOfIndividualityWithCva(6, 2.5, 10), 12);
    expect(r.prriUseful).toBe(r.iiWithCva.value! < 0.6);
  });
  it('says when the point meets a level and the interval does not', () => {
    // CVA 2.9 ≤ 3 (desirable at CVI 6) but > 2.5 (desirable at the CVI lower limit 5).
    const r = menuTest({ ...base, cvi, cvg, cva: 2.9, bias: 0 });
    expect(r.apsMet.imprecision).toBe('desirable');
    expect(r.apsMetOverLimits.imprecision).toBe('minimum');
  });
  it('without a CVG: bias and TE cannot be judged, II is missing with why', () => {
    const r = menuTest({ ...base, cvi, cvg: null, cva: 1, bias: 1 });
    expect(r.apsMet.bias).toBeNull();
    expect(r.apsMet.totalError).toBeNull();
    expect(r.apsMet.imprecision).toBe('optimal');
    expect(r.ii.value).toBeNull();
    expect(r.ii.why).toBe('no CVG estimate');
    expect(r.prriUseful).toBeNull();
  });
  it('without the lab CVA: no RCV, no sigma, II only without CVA', () => {
    const r = menuTest({ ...base, cvi, cvg, cva: null, bias: 1 });
    expect(r.rcv).toBeNull();
    expect(r.sigma).toBeNull();
    expect(r.apsMet.imprecision).toBeNull();
    expect(r.iiWithCva.value).toBeNull();
    expect(r.prriUseful).toBe(0.6 < 0.6);
  });
  it('uses the lab TE when given', () => {
    const r = menuTest({ ...base, cvi, cvg, cva: 1, bias: 1, te: 50 });
    expect(r.lab.totalError).toBe(50);
    expect(r.lab.teSource).toBe('given');
    expect(r.apsMet.totalError).toBe('none');
  });
  it('refuses a negative CVA', () => {
    expect(() => menuTest({ ...base, cvi, cvg, cva: -1, bias: 0 })).toThrow(DomainInputError);
  });

  const estimateArb = fc
    .tuple(
      fc.double({ min: 0.5, max: 50, noNaN: true }),
      fc.double({ min: 0, max: 0.5, noNaN: true }),
      fc.double({ min: 0, max: 0.5, noNaN: true }),
    )
    .map(([m, lo, hi]) => est(m, m * (1 - lo), m * (1 + hi)));
  const labArb = fc.record({
    cva: fc.double({ min: 0.1, max: 30, noNaN: true }),
    bias: fc.double({ min: -20, max: 20, noNaN: true }),
  });
  it('property: every point lies in its range, and the interval is never judged better than the point', () => {
    const order = { optimal: 3, desirable: 2, minimum: 1, none: 0 } as const;
    fc.assert(
      fc.property(estimateArb, estimateArb, labArb, (cvi, cvg, lab) => {
        const r = menuTest({ ...base, cvi, cvg, ...lab });
        const inRange = (v: { value: number | null; range: { lower: number; upper: number } | null }) =>
          v.value === null ||
          !v.range ||
          (v.range.lower <= v.value + 1e-9 && v.value <= v.range.upper + 1e-9);
        for (const level of ['optimal', 'desirable', 'minimum'] as const) {
          expect(inRange(r.sigma![level])).toBe(true);
          for (const m of ['imprecision', 'bias', 'totalError', 'mau'] as const)
            expect(inRange(r.specs[level][m])).toBe(true);
        }
        expect(inRange(r.rcv!.up) && inRange(r.rcv!.down) && inRange(r.ii) && inRange(r.iiWithCva)).toBe(
          true,
        );
        for (const m of ['imprecision', 'bias', 'totalError', 'mau'] as const) {
          expect(order[r.apsMetOverLimits[m]!]).toBeLessThanOrEqual(order[r.apsMet[m]!]);
        }
      }),
    );
  });
  it('property: sigma ranges are the TEa ranges through (TEa − |bias|)/CVA', () => {
    fc.assert(
      fc.property(estimateArb, estimateArb, labArb, (cvi, cvg, lab) => {
        const r = menuTest({ ...base, cvi, cvg, ...lab });
        const tea = r.specs.desirable.totalError.range!;
        const s = r.sigma!.desirable.range!;
        expect(s.lower).toBeCloseTo((tea.lower - Math.abs(lab.bias)) / lab.cva, 9);
        expect(s.upper).toBeCloseTo((tea.upper - Math.abs(lab.bias)) / lab.cva, 9);
      }),
    );
  });
});

describe('matchMenuLine: exact name, alternative name or code, never guessed', () => {
  const catalogue = new MenuCatalogue([
    {
      measurandId: 1,
      displayName: 'Creatinine',
      names: ['Creatinine', 'Creatinine, serum'],
      codes: ['2160-0', 'NPU18016'],
      matrices: ['Serum', 'Urine'],
    },
    {
      measurandId: 2,
      displayName: 'Sodium',
      names: ['Sodium', 'Na'],
      codes: ['2951-2'],
      matrices: ['Serum'],
    },
    {
      measurandId: 3,
      displayName: 'Sodium (urine)',
      names: ['Sodium (urine)', 'Na'],
      codes: [],
      matrices: ['Urine'],
    },
    { measurandId: 4, displayName: 'Nothing yet', names: ['Nothing yet'], codes: [], matrices: [] },
  ]);
  const line = (name: string | null, code: string | null = null, matrix: string | null = null) => ({
    name,
    code,
    matrix,
  });
  it('matches a name without case or accents, in the headline matrix', () => {
    expect(matchMenuLine(catalogue, line(' créatinine '))).toMatchObject({
      status: 'matched',
      match: { measurandId: 1, matrix: 'Serum' },
    });
  });
  it('matches an alternative name, a code and the measurand id', () => {
    expect(matchMenuLine(catalogue, line('creatinine, SERUM')).match?.measurandId).toBe(1);
    expect(matchMenuLine(catalogue, line(null, 'npu18016')).match?.measurandId).toBe(1);
    expect(matchMenuLine(catalogue, line('whatever', '2')).match?.measurandId).toBe(2);
  });
  it('a matrix asked picks it; one without an estimate is unmatched with the matrices offered', () => {
    expect(matchMenuLine(catalogue, line('Creatinine', null, 'urine')).match?.matrix).toBe('Urine');
    const m = matchMenuLine(catalogue, line('Creatinine', null, 'CSF'));
    expect(m.status).toBe('unmatched');
    expect(m.candidates.map((c) => c.matrix)).toEqual(['Serum', 'Urine']);
  });
  it('two measurands with the name: ambiguous, both offered; a matrix settles it', () => {
    const m = matchMenuLine(catalogue, line('Na'));
    expect(m.status).toBe('ambiguous');
    expect(m.candidates.map((c) => c.measurandId)).toEqual([2, 3]);
    expect(matchMenuLine(catalogue, line('Na', null, 'Urine')).match?.measurandId).toBe(3);
  });
  it('an unknown name or a measurand without estimates is unmatched, never guessed', () => {
    expect(matchMenuLine(catalogue, line('Creatinin'))).toMatchObject({ status: 'unmatched', match: null });
    expect(matchMenuLine(catalogue, line('Nothing yet')).status).toBe('unmatched');
    expect(matchMenuLine(catalogue, line(null)).why).toBe('The line has no name or code');
  });
  it('a name many measurands share lists the first twenty by id and counts them all (decision 066)', () => {
    const many = new MenuCatalogue(
      Array.from({ length: 30 }, (_, k) => ({
        measurandId: 100 - k,
        displayName: `ALT copy ${k}`,
        names: [`ALT copy ${k}`, 'ALT'],
        codes: [],
        matrices: ['Serum', 'Plasma'],
      })),
    );
    const m = matchMenuLine(many, line('alt'));
    expect(m.status).toBe('ambiguous');
    expect(m.why).toBe('30 measurands have this name');
    expect(m.candidatesTotal).toBe(60);
    expect(m.candidates).toHaveLength(MENU_CANDIDATES_SHOWN);
    expect(m.candidates.slice(0, 4).map((c) => [c.measurandId, c.matrix])).toEqual([
      [71, 'Serum'],
      [71, 'Plasma'],
      [72, 'Serum'],
      [72, 'Plasma'],
    ]);
    expect(matchMenuLine(many, line('alt', null, 'plasma')).candidatesTotal).toBe(30);
    expect(matchMenuLine(catalogue, line('Na')).candidatesTotal).toBe(2);
  });

  it('a catalogue updated measurand by measurand answers as one built from the same entries', () => {
    const entries = [
      { measurandId: 5, displayName: 'Urea', names: ['Urea', 'BUN'], codes: ['3094-0'], matrices: ['Serum'] },
      {
        measurandId: 2,
        displayName: 'Urea (urine)',
        names: ['Urea (urine)', 'BUN'],
        codes: [],
        matrices: ['Urine'],
      },
      { measurandId: 9, displayName: 'Urate', names: ['Urate'], codes: ['3084-1'], matrices: ['Serum'] },
    ];
    const updated = new MenuCatalogue(entries.slice(0, 1));
    updated.update(entries.slice(1));
    const renamed = { ...entries[2]!, names: ['Uric acid', 'BUN'], codes: ['NPU01234'] };
    updated.update([renamed], [5]);
    const built = new MenuCatalogue([entries[1]!, renamed]);
    for (const q of ['Urea', 'BUN', 'Urate', 'Uric acid', 'Urea (urine)'])
      expect(matchMenuLine(updated, line(q)), q).toEqual(matchMenuLine(built, line(q)));
    for (const c of ['3094-0', '3084-1', 'NPU01234', '5', '9'])
      expect(matchMenuLine(updated, line(null, c)), c).toEqual(matchMenuLine(built, line(null, c)));
    expect(matchMenuLine(updated, line('BUN')).candidates.map((c) => c.measurandId)).toEqual([2, 9]);
    expect(matchMenuLine(updated, line('Urate')).status).toBe('unmatched');
  });
});
