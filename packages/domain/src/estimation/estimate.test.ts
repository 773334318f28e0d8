import { describe, expect, it } from 'vitest';
import { DomainInputError } from '../errors.js';
import { estimateCviConfidenceInterval } from '../dataset-ci.js';
import { cochranCritical } from './cochran.js';
import { estimateBiologicalVariation, resolveEstimationOptions } from './estimate.js';
import { shapiroWilk } from './shapiro-wilk.js';
import type { EstimationRow } from './types.js';

const STEPS_OFF = { replicate_outlier: 'none', sample_outlier: false, reed: false } as const;

function toRows(v: Record<string, number[][]>, group?: string): EstimationRow[] {
  return Object.entries(v).flatMap(([subject, samples]) =>
    samples.flatMap((x, j) =>
      x.map((value, r) => ({
        subject,
        sample: String(j + 1),
        replicate: r + 1,
        value,
        ...(group ? { group } : {}),
      })),
    ),
  );
}

// Three subjects × three samples × two replicates, built so every sum of squares is a whole number.
// Sample means: A 10, 12, 14 (mean 12); B 21, 20, 25 (mean 22); C 16, 17, 18 (mean 17); grand mean 17.
const BALANCED = {
  A: [
    [9, 11],
    [12, 12],
    [13, 15],
  ],
  B: [
    [20, 22],
    [19, 21],
    [25, 25],
  ],
  C: [
    [15, 17],
    [16, 18],
    [18, 18],
  ],
};

describe('the balanced case, by hand', () => {
  const r = estimateBiologicalVariation(toRows(BALANCED), STEPS_OFF);
  it('has every mean square and df', () => {
    // SS_replicates: six pairs differ by 2 → 6 × 2 = 12 on 9 df
    expect(r.anova.replicates.df).toBe(9);
    expect(r.anova.replicates.ms).toBeCloseTo(12 / 9, 12);
    // SS_samples: 2·[(4+0+4) + (1+4+9) + (1+0+1)] = 48 on 6 df
    expect(r.anova.between_samples).toEqual({ ms: 8, df: 6 });
    // SS_subjects: 6·[(12−17)² + (22−17)² + 0] = 300 on 2 df
    expect(r.anova.between_subjects).toEqual({ ms: 150, df: 2 });
    expect(r.grand_mean).toBe(17);
  });
  it('has the variance components and CVs', () => {
    const c = r.estimates.classic;
    expect(c.variance_components.analytical).toBeCloseTo(4 / 3, 12);
    expect(c.variance_components.within).toBeCloseTo((8 - 4 / 3) / 2, 12); // 10/3
    expect(c.variance_components.between).toBeCloseTo((150 - 8) / 6, 12); // 71/3
    expect(c.cva).toBeCloseTo((100 * Math.sqrt(4 / 3)) / 17, 10);
    expect(c.cvi).toBeCloseTo((100 * Math.sqrt(10 / 3)) / 17, 10);
    expect(c.cvg).toBeCloseTo((100 * Math.sqrt(71 / 3)) / 17, 10);
  });
  it('gives the MLS interval of the design formula for a balanced design (Røraas 2012)', () => {
    const cv = r.estimates.cv_anova;
    const design = estimateCviConfidenceInterval({
      subjects: 3,
      samplesPerSubject: 3,
      replicates: 2,
      cva: cv.cva,
      cvi: cv.cvi,
    });
    expect(cv.cvi_ci[0]).toBeCloseTo(design!.lower, 8);
    expect(cv.cvi_ci[1]).toBeCloseTo(design!.upper, 8);
  });
  it('counts what it kept', () => {
    expect(r).toMatchObject({ n_subjects: 3, n_samples: 9, n_results: 18, excluded: [] });
    expect(r.counts_before).toEqual({ subjects: 3, samples: 9, results: 18, missing: 0 });
    expect(r.options).toEqual({ alpha: 0.05, ...STEPS_OFF });
  });
});

describe('options and input', () => {
  it('fills the defaults', () => {
    expect(resolveEstimationOptions()).toEqual({
      alpha: 0.05,
      replicate_outlier: 'sample',
      sample_outlier: true,
      reed: true,
    });
  });
  it('rejects options out of range', () => {
    expect(() => resolveEstimationOptions({ alpha: 0.7 })).toThrow(DomainInputError);
    expect(() => resolveEstimationOptions({ bootstrap: { replicates: 10, seed: 1 } })).toThrow(
      /bootstrap replicates/,
    );
  });
  it('counts missing values and leaves them out', () => {
    const rows = toRows(BALANCED);
    rows[0]!.value = null;
    rows[5]!.value = null;
    const r = estimateBiologicalVariation(rows, STEPS_OFF);
    expect(r.counts_before).toEqual({ subjects: 3, samples: 9, results: 16, missing: 2 });
    expect(r.n_results).toBe(16);
    expect(r.anova.replicates.df).toBe(7);
  });
  it('says why a design cannot be estimated', () => {
    const single = toRows({ A: [[1], [2]], B: [[3], [4]] });
    expect(() => estimateBiologicalVariation(single, STEPS_OFF)).toThrow(/2 or more replicates/);
    expect(() => estimateBiologicalVariation(toRows({ A: [[1, 2]] }), STEPS_OFF)).toThrow(/2 subjects/);
  });
  it("Reed's criterion removes a subject whose mean is more than a third of the range from the next", () => {
    const r = estimateBiologicalVariation(toRows(BALANCED), { ...STEPS_OFF, reed: true });
    // Means 12 (A), 17 (C), 22 (B): both ends are 0.5 of the range from the next. The published
    // scripts (bs.reed.func, van Winden et al. 2021) examine the low end first: A goes (issue 42.8).
    expect(r.excluded).toEqual([{ step: 'reed', subject: 'A', statistic: 0.5, critical: 1 / 3, p: null }]);
    expect(r.n_subjects).toBe(2);
  });
  it("Reed's criterion examines the low end first, then the high end, as bs.reed.func does (issue 42.8)", () => {
    // Two samples of duplicates around each mean.
    const around = (m: number) => [
      [m - 0.1, m + 0.1],
      [m, m],
    ];
    const rows = toRows({ L: around(1.1), M1: around(10.1), M2: around(11.1), H: around(30.1) });
    // Low gap 9/29 < 1/3 so the low end stays; the high gap 19/29 > 1/3 removes H; then L
    // (9/10 of the new range) goes, low end first again; two means left end the test.
    const r = estimateBiologicalVariation(rows, { ...STEPS_OFF, reed: true });
    expect(r.excluded.map((x) => x.subject)).toEqual(['H', 'L']);
    // Both ends outlying at once (low 14/40, high 25/40): the lowest goes first though the high gap is larger.
    const both = estimateBiologicalVariation(
      toRows({ L: around(1), M1: around(15), M2: around(16), H: around(41) }),
      { ...STEPS_OFF, reed: true },
    );
    expect(both.excluded[0]!.subject).toBe('L');
  });
  it('a replicate outlier removes the sample or the subject, as asked', () => {
    const v = structuredClone(BALANCED);
    v.A[1] = [12, 30];
    const bySample = estimateBiologicalVariation(toRows(v), { ...STEPS_OFF, replicate_outlier: 'sample' });
    expect(bySample.excluded).toMatchObject([{ step: 'replicate_cochran', subject: 'A', sample: '2' }]);
    expect(bySample.excluded[0]!.statistic).toBeGreaterThan(bySample.excluded[0]!.critical);
    // C > C_crit is the same event as k·P(F > F_C) < α
    expect(bySample.excluded[0]!.p).toBeLessThan(0.05);
    expect([bySample.n_subjects, bySample.n_samples]).toEqual([3, 8]);
    const bySubject = estimateBiologicalVariation(toRows(v), { ...STEPS_OFF, replicate_outlier: 'subject' });
    expect([bySubject.n_subjects, bySubject.n_samples]).toEqual([2, 6]);
  });
  it('estimates each group on its own as well as together', () => {
    const rows = [...toRows(BALANCED, 'F'), ...toRows({ D: BALANCED.A, E: BALANCED.C }, 'M')];
    const r = estimateBiologicalVariation(rows, STEPS_OFF);
    expect(r.n_subjects).toBe(5);
    expect(Object.keys(r.strata!)).toEqual(['F', 'M']);
    expect(r.strata!.F).toMatchObject({ n_subjects: 3, anova: { between_subjects: { ms: 150, df: 2 } } });
    expect(r.strata!.M).toMatchObject({ n_subjects: 2 });
  });
  it('reproduces a bootstrap from its seed, and another seed gives another interval', () => {
    const o = { ...STEPS_OFF, bootstrap: { replicates: 200, seed: 7 } };
    const a = estimateBiologicalVariation(toRows(BALANCED), o).estimates.classic.bootstrap!;
    const b = estimateBiologicalVariation(toRows(BALANCED), o).estimates.classic.bootstrap!;
    const c = estimateBiologicalVariation(toRows(BALANCED), {
      ...o,
      bootstrap: { replicates: 200, seed: 8 },
    });
    expect(a).toEqual(b);
    expect(a.replicates).toBe(200);
    expect(a.cvi_ci[0]).toBeLessThanOrEqual(a.cvi_ci[1]);
    const other = c.estimates.classic.bootstrap!;
    expect([other.cva_ci, other.cvi_ci, other.cvg_ci]).not.toEqual([a.cva_ci, a.cvi_ci, a.cvg_ci]);
  });
  it('derives II, RCV, set point samples and APS from the estimates', () => {
    const r = estimateBiologicalVariation(toRows(BALANCED), STEPS_OFF);
    const src = r.estimates[r.derived.source];
    const cvg = r.estimates.classic.cvg!;
    expect(r.derived.ii).toBeCloseTo(src.cvi / cvg, 12);
    expect(r.derived.rcv.up).toBeGreaterThan(-r.derived.rcv.down);
    expect(r.derived.aps.desirable.imprecision).toBeCloseTo(0.5 * src.cvi, 12);
    expect(r.derived.setpoint_samples.map((s) => s.within_percent)).toEqual([5, 10, 20]);
  });
});

// Published example with printed results: Doncaster & Davey, Analysis of Variance and Covariance,
// Cambridge UP 2007, worked example 1 (model 2.1, cortisol by food A and pen B(A), 3 results per pen;
// datasets at southampton.ac.uk/~cpd/anovas/datasets). Printed: A 177.13 (1 df), B(A) 20.50 (6),
// error 5.42 (16). Read here as subjects = food, samples = pens, replicates = results.
describe('Doncaster & Davey 2007, worked example 1', () => {
  const pens = {
    '1': [
      [15.5, 16.2, 15.0],
      [18.7, 15.0, 20.8],
      [12.0, 15.0, 13.2],
      [12.4, 10.4, 9.5],
    ],
    '2': [
      [16.1, 7.3, 10.5],
      [7.5, 7.2, 10.8],
      [5.2, 9.4, 5.5],
      [8.8, 10.3, 9.9],
    ],
  };
  it('gives the printed mean squares', () => {
    const r = estimateBiologicalVariation(toRows(pens), STEPS_OFF);
    expect(r.anova.between_subjects.df).toBe(1);
    expect(r.anova.between_samples.df).toBe(6);
    expect(r.anova.replicates.df).toBe(16);
    expect(r.anova.between_subjects.ms).toBeCloseTo(177.13, 2);
    expect(r.anova.between_samples.ms).toBeCloseTo(20.5, 2);
    expect(r.anova.replicates.ms).toBeCloseTo(5.42, 2);
  });
});

describe('checks on the balanced case', () => {
  const r = estimateBiologicalVariation(toRows(BALANCED), STEPS_OFF);
  it("Cochran's C on the within-subject variances: 7 / (4 + 7 + 1), subject B", () => {
    expect(r.checks.homogeneity.cochran).toMatchObject({ subject: 'B', homogeneous: true });
    expect(r.checks.homogeneity.cochran!.c).toBeCloseTo(7 / 12, 12);
    expect(r.checks.homogeneity.cochran!.critical).toBeCloseTo(cochranCritical(3, 2, 0.05), 12);
  });
  it('regresses the mean at each sample on the sample number: 47/3, 49/3, 57/3 → slope 5/3', () => {
    expect(r.checks.steady_state!.points).toBe(3);
    expect(r.checks.steady_state!.slope).toBeCloseTo(5 / 3, 12);
    expect(r.checks.steady_state!.slope_percent).toBeCloseTo((100 * 5) / 3 / 17, 10);
  });
  it('tests normality per subject and leaves what cannot be tested as null', () => {
    expect(r.checks.normality.per_subject).toEqual({ tested: 3, passing: 3, share_passing: 1 });
    expect(r.checks.normality.subject_means).not.toBeNull();
    expect(shapiroWilk([1, 2])).toBeNull();
    expect(shapiroWilk([3, 3, 3, 3])).toBeNull();
  });
});

describe("Cochran's C critical values", () => {
  // Published table to 4 decimals (Eisenhart, Hastay & Wallis 1947; ISO 5725-2 Table 4), n = 2 per group
  it.each([
    [2, 0.05, 0.9985],
    [5, 0.05, 0.8412],
    [10, 0.05, 0.602],
    [20, 0.05, 0.3894],
    [10, 0.01, 0.7175],
  ])('k = %i, α = %f → %f', (k, alpha, table) => {
    expect(Math.abs(cochranCritical(k, 1, alpha) - table)).toBeLessThan(1e-4);
  });
});

describe('results a CV cannot be computed from are named for their cause (issue 43.5)', () => {
  const scaled = (f: (v: number) => number) =>
    Object.fromEntries(
      Object.entries(BALANCED).map(([s, samples]) => [s, samples.map((x) => x.map(f))]),
    ) as Record<string, number[][]>;
  const messageOf = (rows: EstimationRow[]) => {
    try {
      estimateBiologicalVariation(rows, STEPS_OFF);
    } catch (err) {
      expect(err).toBeInstanceOf(DomainInputError);
      return (err as Error).message;
    }
    throw new Error('no error');
  };

  it.each([
    [
      'all results 0',
      scaled(() => 0),
      /mean of the results is 0.*CV \(SD divided by the mean\) is undefined/,
    ],
    ['negative results', scaled((v) => -v), /mean of the results is -17\.00, not positive/],
    [
      'one subject at 0',
      { ...BALANCED, B: BALANCED.B.map((x) => x.map(() => 0)) },
      /subject B's results is 0/,
    ],
    ['results of 1e308', scaled(() => 1e308), /1e\+308 \(subject A, sample 1\) is too large to compute with/],
    [
      'results just past 1e150',
      scaled((v) => v * 1e150),
      /too large to compute with: results must be at most 1e150/,
    ],
  ])('%s', (_name, values, message) => {
    const text = messageOf(toRows(values));
    expect(text).toMatch(message);
    expect(text).not.toMatch(/CVA must be/);
  });

  it('results up to 1e150 in size are estimated, with the CVs of the same results at a smaller scale', () => {
    const small = estimateBiologicalVariation(toRows(BALANCED), STEPS_OFF);
    const large = estimateBiologicalVariation(toRows(scaled((v) => v * 1e148)), STEPS_OFF);
    expect(large.estimates.classic.cvi).toBeCloseTo(small.estimates.classic.cvi, 9);
    expect(large.estimates.classic.cva).toBeCloseTo(small.estimates.classic.cva, 9);
  });
});

describe('the bootstrap work of one estimation is bounded (issue 43.4)', () => {
  const many = (n: number, group?: (i: number) => string) =>
    Array.from({ length: n }, (_, i) => ({
      subject: `S${i % 20}`,
      sample: String(Math.floor(i / 20) % 10),
      replicate: Math.floor(i / 200) + 1,
      value: 100 + (i % 7),
      ...(group ? { group: group(i) } : {}),
    }));
  const refusal = (rows: EstimationRow[], replicates: number) => {
    try {
      estimateBiologicalVariation(rows, { bootstrap: { replicates, seed: 1 } });
      return null;
    } catch (err) {
      expect(err).toBeInstanceOf(DomainInputError);
      return (err as Error).message;
    }
  };

  it('refuses past 10,000,000 results resampled, before any work, naming what fits', () => {
    expect(refusal(many(10_000), 1_001)).toMatch(
      /^A bootstrap of 1,001 resamples over 10,000 results resamples 10,010,000 results: at most 10,000,000 per estimation\. Ask for at most 1,000 resamples/,
    );
  });

  it('counts the results twice when the rows carry groups (each group is resampled again)', () => {
    expect(
      refusal(
        many(6_000, (i) => (i % 2 ? 'F' : 'M')),
        1_000,
      ),
    ).toMatch(
      /over 6,000 results \(resampled again by group\) resamples 12,000,000 results.*at most 833 resamples/,
    );
  });

  it('leaves missing results out of the count', () => {
    const rows = many(400).map((r, i) => (i % 2 ? { ...r, value: null } : r));
    expect(refusal(rows, 10_000)).toBeNull();
  });
});
