import { apsForOutput } from '../aps.js';
import { indexOfIndividuality, indexOfIndividualityWithCva, samplesForSetPoint } from '../applications.js';
import { estimateCviConfidenceInterval } from '../dataset-ci.js';
import { normalQuantile } from '../distributions.js';
import { DomainInputError } from '../errors.js';
import { mulberry32 } from '../prng.js';
import { rcvAsymmetric } from '../rcv.js';
import { nestedAnova, normaliseBySubjectMean, type NestedAnova, type NestedData } from './anova.js';
import { homogeneity, normality, steadyState } from './checks.js';
import { chiSquareVarianceInterval, cvFromVariance, mlsInterval, percentile } from './intervals.js';
import {
  collator,
  mean,
  nest,
  reedStep,
  replicateStep,
  sampleMeans,
  sampleStep,
  toData,
  type Subject,
} from './outliers.js';
import type {
  EstimateSet,
  EstimationCore,
  EstimationOptions,
  EstimationResult,
  EstimationRow,
  Exclusion,
  Interval,
} from './types.js';

export const DEFAULT_ESTIMATION_OPTIONS: Readonly<EstimationOptions> = Object.freeze({
  alpha: 0.05,
  replicate_outlier: 'sample',
  sample_outlier: true,
  reed: true,
});

/** The options with their defaults filled in; a DomainInputError for values out of range. */
export function resolveEstimationOptions(options: Partial<EstimationOptions> = {}): EstimationOptions {
  const o: EstimationOptions = { ...DEFAULT_ESTIMATION_OPTIONS, ...options };
  if (!(o.alpha > 0 && o.alpha < 0.5)) throw new DomainInputError('alpha must be between 0 and 0.5');
  if (!['sample', 'subject', 'none'].includes(o.replicate_outlier))
    throw new DomainInputError('replicate_outlier must be "sample", "subject" or "none"');
  if (o.bootstrap) {
    const { replicates, seed } = o.bootstrap;
    if (!Number.isInteger(replicates) || replicates < 100 || replicates > 10_000)
      throw new DomainInputError('bootstrap replicates must be a whole number from 100 to 10000');
    if (!Number.isInteger(seed)) throw new DomainInputError('bootstrap seed must be a whole number');
  } else delete o.bootstrap;
  return o;
}

interface PointEstimates {
  classic: { cva: number; cvi: number; cvg: number };
  cv: { cva: number; cvi: number };
}

function points(data: NestedData): PointEstimates {
  const a = nestedAnova(data);
  const n = nestedAnova(normaliseBySubjectMean(data));
  return {
    classic: {
      cva: cvFromVariance(a.analytical, a.grand_mean),
      cvi: cvFromVariance(a.within, a.grand_mean),
      cvg: cvFromVariance(a.between, a.grand_mean),
    },
    cv: { cva: cvFromVariance(n.analytical, n.grand_mean), cvi: cvFromVariance(n.within, n.grand_mean) },
  };
}

const ciCv = (ci: Interval, m: number): Interval => [cvFromVariance(ci[0], m), cvFromVariance(ci[1], m)];

/** CVs and intervals from one ANOVA: χ² for CVA, modified large-sample for CVI and CVG (Burdick & Graybill 1992). */
function estimateSet(a: NestedAnova, alpha: number, withCvg: boolean): EstimateSet {
  const m = a.grand_mean;
  const { between_subjects: A, between_samples: B, replicates: W, n0, n0_prime: n1, n0_double_prime: n2 } = a;
  const set: EstimateSet = {
    cva: cvFromVariance(a.analytical, m),
    cvi: cvFromVariance(a.within, m),
    cva_ci: ciCv(chiSquareVarianceInterval(W.ms, W.df, alpha), m),
    cvi_ci: ciCv(
      mlsInterval(
        [
          { coefficient: 1 / n0, ...B },
          { coefficient: -1 / n0, ...W },
        ],
        alpha,
      ),
      m,
    ),
    variance_components: { analytical: a.analytical, within: Math.max(a.within, 0) },
  };
  if (withCvg) {
    set.cvg = cvFromVariance(a.between, m);
    set.cvg_ci = ciCv(
      mlsInterval(
        [
          { coefficient: 1 / n2, ...A },
          { coefficient: -(n1 / n0) / n2, ...B },
          { coefficient: -(1 - n1 / n0) / n2, ...W },
        ],
        alpha,
      ),
      m,
    );
    set.variance_components.between = Math.max(a.between, 0);
  }
  return set;
}

/** Subject-level percentile bootstrap (Efron & Tibshirani 1993, ch. 13), seeded with mulberry32. */
function bootstrap(
  subjects: readonly Subject[],
  o: EstimationOptions,
): { classic: Record<'cva' | 'cvi' | 'cvg', Interval>; cv: Record<'cva' | 'cvi', Interval> } | null {
  if (!o.bootstrap) return null;
  const rng = mulberry32(o.bootstrap.seed);
  const data = toData(subjects);
  const acc = {
    ca: [] as number[],
    ci: [] as number[],
    cg: [] as number[],
    va: [] as number[],
    vi: [] as number[],
  };
  for (let b = 0; b < o.bootstrap.replicates; b++) {
    const draw = data.map(() => data[Math.floor(rng() * data.length)]!);
    try {
      const p = points(draw);
      acc.ca.push(p.classic.cva);
      acc.ci.push(p.classic.cvi);
      acc.cg.push(p.classic.cvg);
      acc.va.push(p.cv.cva);
      acc.vi.push(p.cv.cvi);
    } catch (e) {
      if (!(e instanceof DomainInputError)) throw e;
    }
  }
  if (acc.ca.length < 2) return null;
  const ci = (v: number[]): Interval => {
    const s = v.sort((x, y) => x - y);
    return [percentile(s, o.alpha / 2), percentile(s, 1 - o.alpha / 2)];
  };
  return {
    classic: { cva: ci(acc.ca), cvi: ci(acc.ci), cvg: ci(acc.cg) },
    cv: { cva: ci(acc.va), cvi: ci(acc.vi) },
  };
}

/**
 * The largest result, in size, the engine computes with: the ANOVA sums squares of results, and a
 * square past ~1.3e154 is no longer a finite double (IEEE 754), so a bound well below it keeps every
 * sum of squares of 10,000 rows finite. No laboratory result comes near it in any unit.
 */
export const ESTIMATION_MAX_ABS_VALUE = 1e150;

/** A result too large to square and sum: named by its subject and sample (issue 43.5). */
function checkValueSizes(rows: readonly EstimationRow[]): void {
  const at = rows.findIndex(
    (r) => r.value !== null && Number.isFinite(r.value) && Math.abs(r.value) > ESTIMATION_MAX_ABS_VALUE,
  );
  if (at < 0) return;
  const r = rows[at]!;
  throw new DomainInputError(
    `The result ${String(r.value)} (subject ${r.subject}, sample ${r.sample}) is too large to compute with: ` +
      `results must be at most 1e150 in size. Give the results in a unit that keeps them smaller.`,
  );
}

/**
 * A CV is an SD divided by the mean (Røraas et al. 2012): undefined when the mean is 0 and
 * meaningless when it is negative, for all the results or (CV-ANOVA divides each subject's results
 * by that subject's mean, Røraas et al. 2016) for one subject's. Named before any CV is computed.
 */
function checkMeans(subjects: readonly Subject[], grandMean: number): void {
  if (!(grandMean > 0)) {
    throw new DomainInputError(
      grandMean === 0
        ? 'The mean of the results is 0 (all results are 0?): a CV (SD divided by the mean) is undefined. Biological variation needs positive results.'
        : `The mean of the results is ${grandMean.toPrecision(4)}, not positive: a CV (SD divided by the mean) needs positive results.`,
    );
  }
  for (const s of subjects) {
    const m = mean(s.samples.flatMap((x) => x.values));
    if (!(m > 0)) {
      throw new DomainInputError(
        `The mean of subject ${s.id}'s results is ${m === 0 ? '0' : m.toPrecision(4)}: CV-ANOVA divides each subject's results by that subject's mean, which must be positive. Check that subject's results.`,
      );
    }
  }
}

function core(rows: readonly EstimationRow[], o: EstimationOptions): EstimationCore {
  checkValueSizes(rows);
  const missing = rows.filter((r) => r.value === null || !Number.isFinite(r.value)).length;
  const all = nest(rows);
  const counts_before = {
    subjects: all.length,
    samples: all.reduce((s, x) => s + x.samples.length, 0),
    results: all.reduce((s, x) => s + x.samples.reduce((t, y) => t + y.values.length, 0), 0),
    missing,
  };
  const excluded: Exclusion[] = [];
  let kept = all;
  if (o.replicate_outlier !== 'none') kept = replicateStep(kept, o, excluded);
  if (o.sample_outlier) kept = sampleStep(kept, o, excluded);
  if (o.reed) kept = reedStep(kept, excluded);

  const data = toData(kept);
  const anova = nestedAnova(data);
  checkMeans(kept, anova.grand_mean);
  const cvAnova = nestedAnova(normaliseBySubjectMean(data));
  const classic = estimateSet(anova, o.alpha, true);
  const cv_anova = estimateSet(cvAnova, o.alpha, false);
  const boot = bootstrap(kept, o);
  if (boot && o.bootstrap) {
    classic.bootstrap = {
      cva_ci: boot.classic.cva,
      cvi_ci: boot.classic.cvi,
      cvg_ci: boot.classic.cvg,
      ...o.bootstrap,
    };
    cv_anova.bootstrap = { cva_ci: boot.cv.cva, cvi_ci: boot.cv.cvi, ...o.bootstrap };
  }

  const bySubject = kept.map(sampleMeans);
  const labels = [...new Set(kept.flatMap((s) => s.samples.map((x) => x.id)))].sort(collator.compare);
  const atTimePoint = labels.map((l) =>
    mean(kept.flatMap((s) => s.samples.filter((x) => x.id === l).map((x) => mean(x.values)))),
  );
  const checks = {
    steady_state: steadyState(atTimePoint, anova.grand_mean, o.alpha),
    normality: normality(bySubject, o.alpha),
    homogeneity: homogeneity(
      bySubject,
      kept.map((s) => s.id),
      o.alpha,
    ),
  };

  const n_subjects = kept.length;
  const n_samples = data.reduce((s, x) => s + x.length, 0);
  const n_results = data.reduce((s, x) => s + x.reduce((t, y) => t + y.length, 0), 0);
  const source = checks.normality.scale === 'cv_anova' ? 'cv_anova' : 'classic';
  const { cva, cvi } = source === 'cv_anova' ? cv_anova : classic;
  const cvg = classic.cvg ?? 0;
  const z = normalQuantile(1 - o.alpha / 2);
  const designCi = estimateCviConfidenceInterval({
    subjects: n_subjects,
    samplesPerSubject: Math.round(n_samples / n_subjects),
    replicates: Math.round(n_results / n_samples),
    cva,
    cvi,
    confidence: 1 - o.alpha,
  });
  return {
    excluded,
    n_subjects,
    n_samples,
    n_results,
    counts_before,
    grand_mean: anova.grand_mean,
    anova: {
      between_subjects: anova.between_subjects,
      between_samples: anova.between_samples,
      replicates: anova.replicates,
    },
    estimates: { classic, cv_anova },
    derived: {
      source,
      ii: cvg > 0 ? indexOfIndividuality(cvi, cvg) : null,
      ii_with_cva: cvg > 0 ? indexOfIndividualityWithCva(cvi, cva, cvg) : null,
      rcv: rcvAsymmetric(cvi, cva, z),
      setpoint_samples: [5, 10, 20].map((d) => ({
        within_percent: d,
        samples: samplesForSetPoint({ cvi, cva, percentFromSetPoint: d, z }),
      })),
      aps: apsForOutput(cvi, cvg > 0 ? cvg : null),
      design_cvi_ci: designCi ? [designCi.lower, designCi.upper] : null,
    },
    checks,
  };
}

/**
 * The most results one estimation resamples: results × bootstrap resamples (× 2 with groups, each
 * group being resampled again on its own). Each resample is two nested ANOVAs over the results, so
 * the work grows with the product; 10,000 results × 10,000 resamples held a thread for 30 s (issue
 * 43.4). At this bound the longest bootstrap is about 3 s on one core (decision 086).
 */
export const ESTIMATION_MAX_BOOTSTRAP_WORK = 10_000_000;

const n = (v: number) => v.toLocaleString('en');

/** A bootstrap past ESTIMATION_MAX_BOOTSTRAP_WORK is refused before any work, naming the bound. */
function checkBootstrapWork(rows: readonly EstimationRow[], o: EstimationOptions, grouped: boolean): void {
  if (!o.bootstrap) return;
  const results = rows.filter((r) => r.value !== null && Number.isFinite(r.value)).length;
  const passes = grouped ? 2 : 1;
  const work = results * o.bootstrap.replicates * passes;
  if (work <= ESTIMATION_MAX_BOOTSTRAP_WORK) return;
  const most = Math.floor(ESTIMATION_MAX_BOOTSTRAP_WORK / (results * passes));
  throw new DomainInputError(
    `A bootstrap of ${n(o.bootstrap.replicates)} resamples over ${n(results)} results${grouped ? ' (resampled again by group)' : ''} ` +
      `resamples ${n(work)} results: at most ${n(ESTIMATION_MAX_BOOTSTRAP_WORK)} per estimation. ` +
      (most >= 100
        ? `Ask for at most ${n(most)} resamples, or send fewer results.`
        : 'Send fewer results, or leave the bootstrap out.'),
  );
}

/**
 * Biological variation from a study's raw results (issue 31): the outlier pipeline of Braga &
 * Panteghini (Crit Rev Clin Lab Sci 2016;53:313-25) and Aarsand et al. (Clin Chem 2018;64:501-14) —
 * Cochran's C on replicates, Cochran's C on within-subject variances, Reed's criterion — then the
 * steady-state, normality and homogeneity checks, the classic nested ANOVA and CV-ANOVA (Røraas et al.,
 * Clin Chem 2012;58:1306-13 and 2016;62:725-36), their intervals and the values that follow from them.
 * With groups, each group is estimated on its own as well (`strata`). Pure: no I/O, deterministic
 * for a given bootstrap seed. Throws DomainInputError when the data kept cannot be estimated.
 */
export function estimateBiologicalVariation(
  rows: readonly EstimationRow[],
  options: Partial<EstimationOptions> = {},
): EstimationResult {
  const o = resolveEstimationOptions(options);
  const groups = [
    ...new Set(rows.flatMap((r) => (r.group === undefined || r.group === '' ? [] : [r.group]))),
  ].sort(collator.compare);
  checkBootstrapWork(rows, o, groups.length > 0);
  const result: EstimationResult = { ...core(rows, o), options: o };
  if (groups.length > 0) {
    result.strata = {};
    for (const g of groups) {
      try {
        result.strata[g] = core(
          rows.filter((r) => r.group === g),
          o,
        );
      } catch (e) {
        if (!(e instanceof DomainInputError)) throw e;
        result.strata[g] = { error: e.message };
      }
    }
  }
  return result;
}
