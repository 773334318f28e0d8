import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { chiSquareQuantile, fQuantile, normalCdf, normalQuantile, tQuantile } from '../distributions.js';
import { nestedAnova, normaliseBySubjectMean } from './anova.js';
import { cochranCritical } from './cochran.js';
import { estimateBiologicalVariation } from './estimate.js';
import { shapiroWilk } from './shapiro-wilk.js';
import type { EstimationCore, EstimationRow } from './types.js';

// Reference values from R (aov, lme4, shapiro.test, bartlett.test, qchisq/qf/qt/qnorm/pnorm),
// made by test-data/estimation/make-fixtures.R; R is not needed to run these tests.
interface RNested {
  grand_mean: number;
  ms: number[];
  df: number[];
  n0: number;
  n0_prime: number;
  n0_double_prime: number;
  components: { analytical: number; within: number; between: number };
  reml: { analytical: number; within: number; between: number };
}
interface RCase {
  name: string;
  rows: EstimationRow[];
  classic: RNested;
  cv_anova: RNested;
  checks: {
    shapiro_per_subject: Record<string, { w: number; p: number } | Record<string, never>>;
    shapiro_subject_means: { w: number; p: number };
    shapiro_subject_means_log: { w: number; p: number };
    bartlett: { k_squared: number; df: number; p: number };
    steady_state: { slope: number; ci: [number, number]; p: number };
  };
  expected_excluded?: { step: string; subject: string; sample?: string }[];
  strata?: Record<string, RNested>;
}
interface Fixtures {
  generated_by: string;
  cases: RCase[];
  shapiro: { x: number[]; w: number; p: number }[];
  distributions: { p: number; df: number; d2: number; chisq: number; t: number; f: number; norm: number }[];
  normal_cdf: { z: number; p: number }[];
  cochran: { k: number; df: number; alpha: number; critical: number }[];
}

const fixtures = JSON.parse(
  fs.readFileSync(new URL('../../test-data/estimation/fixtures.json', import.meta.url), 'utf8'),
) as Fixtures;

const REL = 1e-6;
function close(actual: number, expected: number, rel = REL): void {
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(rel * Math.max(Math.abs(expected), 1e-300));
}

function expectAnova(r: EstimationCore | ReturnType<typeof nestedAnova>, ref: RNested): void {
  const a = 'anova' in r ? r.anova : r;
  const got = [a.between_subjects, a.between_samples, a.replicates];
  got.forEach((m, i) => {
    expect(m.df).toBe(ref.df[i]);
    close(m.ms, ref.ms[i]!);
  });
  close(r.grand_mean, ref.grand_mean);
}

const STEPS_OFF = { replicate_outlier: 'none', sample_outlier: false, reed: false } as const;

describe.each(fixtures.cases)('R reference: $name', (c) => {
  const steps = c.expected_excluded ? {} : STEPS_OFF;
  const result = estimateBiologicalVariation(c.rows, steps);

  it('excludes what was planted, and nothing else', () => {
    expect(
      result.excluded.map((e) => ({
        step: e.step,
        subject: e.subject,
        ...(e.sample ? { sample: e.sample } : {}),
      })),
    ).toEqual(c.expected_excluded ?? []);
  });

  it("has aov's mean squares and dfs, and the Sokal–Rohlf components", () => {
    expectAnova(result, c.classic);
    const kept = c.rows.filter(
      (r) =>
        r.value !== null &&
        !result.excluded.some(
          (e) => e.subject === r.subject && (e.sample === undefined || e.sample === r.sample),
        ),
    );
    const bySubject = new Map<string, Map<string, number[]>>();
    for (const r of kept) {
      const s = bySubject.get(r.subject) ?? new Map<string, number[]>();
      bySubject.set(r.subject, s);
      s.set(r.sample, [...(s.get(r.sample) ?? []), r.value!]);
    }
    const data = [...bySubject.values()].map((s) => [...s.values()]);
    const a = nestedAnova(data);
    close(a.n0, c.classic.n0);
    close(a.n0_prime, c.classic.n0_prime);
    close(a.n0_double_prime, c.classic.n0_double_prime);
    close(a.analytical, c.classic.components.analytical);
    close(a.within, c.classic.components.within);
    close(a.between, c.classic.components.between);
    const n = nestedAnova(normaliseBySubjectMean(data));
    close(n.analytical, c.cv_anova.components.analytical);
    close(n.within, c.cv_anova.components.within);
    const classic = result.estimates.classic;
    close(classic.cva, (100 * Math.sqrt(c.classic.components.analytical)) / c.classic.grand_mean);
    close(classic.cvi, (100 * Math.sqrt(Math.max(c.classic.components.within, 0))) / c.classic.grand_mean);
    close(result.estimates.cv_anova.cvi, 100 * Math.sqrt(Math.max(c.cv_anova.components.within, 0)));
  });

  it('is near the REML components of lme4 (method of moments and REML differ in unbalanced data)', () => {
    const { analytical, within } = result.estimates.classic.variance_components;
    close(analytical, c.classic.reml.analytical, 0.05);
    close(within, c.classic.reml.within, 0.35);
  });

  it("has R's Shapiro–Wilk, Bartlett and steady-state regression", () => {
    const n = result.checks.normality;
    close(n.subject_means!.w, c.checks.shapiro_subject_means.w);
    close(n.subject_means!.p, c.checks.shapiro_subject_means.p);
    close(n.subject_means_log!.w, c.checks.shapiro_subject_means_log.w);
    close(n.subject_means_log!.p, c.checks.shapiro_subject_means_log.p);
    const tested = Object.values(c.checks.shapiro_per_subject).filter(
      (s): s is { w: number; p: number } => 'w' in s,
    );
    expect(n.per_subject.tested).toBe(tested.length);
    expect(n.per_subject.passing).toBe(tested.filter((s) => s.p >= 0.05).length);
    const b = result.checks.homogeneity.bartlett!;
    close(b.k_squared, c.checks.bartlett.k_squared);
    expect(b.df).toBe(c.checks.bartlett.df);
    close(b.p, c.checks.bartlett.p);
    const s = result.checks.steady_state!;
    close(s.slope, c.checks.steady_state.slope);
    close(s.slope_ci[0], c.checks.steady_state.ci[0]);
    close(s.slope_ci[1], c.checks.steady_state.ci[1]);
    close(s.p, c.checks.steady_state.p);
  });
});

describe('R reference: strata', () => {
  const grouped = fixtures.cases.find((c) => c.strata)!;
  it('estimates each group on its own as R does', () => {
    const result = estimateBiologicalVariation(grouped.rows, STEPS_OFF);
    expect(Object.keys(result.strata!)).toEqual(Object.keys(grouped.strata!));
    for (const [g, ref] of Object.entries(grouped.strata!))
      expectAnova(result.strata![g] as EstimationCore, ref);
  });
});

describe('R reference: special functions', () => {
  it.each(fixtures.shapiro)('Shapiro–Wilk of $x.length values: W $w, p $p', ({ x, w, p }) => {
    const r = shapiroWilk(x)!;
    close(r.w, w);
    close(r.p, p);
  });
  it('χ², t, F and normal quantiles and the normal CDF', () => {
    for (const d of fixtures.distributions) {
      close(chiSquareQuantile(d.p, d.df), d.chisq, 1e-9);
      close(fQuantile(d.p, d.df, d.d2), d.f, 1e-9);
      close(normalQuantile(d.p), d.norm, 1e-12);
      if (d.p !== 0.5) close(tQuantile(d.p, d.df), d.t, 1e-9);
    }
    for (const { z, p } of fixtures.normal_cdf) close(normalCdf(z), p, 1e-12);
  });
  it("Cochran's C critical values from qf", () => {
    for (const c of fixtures.cochran) close(cochranCritical(c.k, c.df, c.alpha), c.critical, 1e-9);
  });
});
