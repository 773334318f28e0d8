/**
 * Hand-checkable cases for the indirect estimate: pairs whose log ratios are known, so every number
 * below can be worked out on paper (docs/domain/indirect-bv.md gives the steps).
 */
import { describe, expect, it } from 'vitest';
import { normalCdf } from '../distributions.js';
import { TooFewPairsError } from '../errors.js';
import { rcvAsymmetric } from '../rcv.js';
import { DEFAULT_INDIRECT_OPTIONS, estimateIndirect, HISTOGRAM_BINS } from './estimate.js';
import { TUKEY_CONSISTENCY, TUKEY_SKIPPED_STEP } from './methods.js';
import { ageBand, PAIRING_STEPS, pairResults } from './pairing.js';
import type { IndirectOptions, MethodResult, RoutineResult } from './types.js';

const DAY = 86_400_000;
const T0 = Date.UTC(2025, 0, 1);
const Z95 = 1.959963984540054;

/** One patient per log ratio: 100 at day 0, 100·e^y at day 7. */
function pairsWithLogRatios(
  logRatios: readonly number[],
  extra: Partial<RoutineResult> = {},
): RoutineResult[] {
  return logRatios.flatMap((y, i) => [
    { patient: `pt-${i}`, time: T0, value: 100, ...extra },
    { patient: `pt-${i}`, time: T0 + 7 * DAY, value: 100 * Math.exp(y), ...extra },
  ]);
}

const options = (o: Partial<IndirectOptions> = {}): IndirectOptions => ({
  ...DEFAULT_INDIRECT_OPTIONS,
  bootstrap: 50,
  ...o,
});

const method = (methods: readonly MethodResult[], name: MethodResult['method']): MethodResult => {
  const m = methods.find((x) => x.method === name);
  if (!m) throw new Error(`no ${name}`);
  return m;
};

/** 30 pairs with log ratio −0.1 and 30 with +0.1: mean 0, SD 0.1·√(60/59), Σy²/(2n) = 0.005. */
const symmetric = [...Array<number>(30).fill(-0.1), ...Array<number>(30).fill(0.1)];
const sdSymmetric = 0.1 * Math.sqrt(60 / 59);
const cvFromSd = (sd: number) => 100 * Math.sqrt(Math.expm1((sd * sd) / 2));
/** bvdb's result ratio divides the kept SD by the Tukey consistency factor (0.97111 for a normal). */
const sdRatio = sdSymmetric / TUKEY_CONSISTENCY;

describe('Tukey consistency factor', () => {
  it('is the SD of a normal truncated at Q1 − 1.5·IQR and Q3 + 1.5·IQR (±2.698σ): 0.97111', () => {
    expect(TUKEY_CONSISTENCY).toBeCloseTo(0.97111, 5);
  });
});

describe('result ratio with Tukey (bvdb: with the consistency factor), by hand', () => {
  it('60 pairs at ±0.1: nothing outside the fences, CV_total from the SD of the log ratios / √2', () => {
    const est = estimateIndirect(pairsWithLogRatios(symmetric), options());
    const rr = method(est.all.methods, 'result_ratio');
    // Q1 = −0.1, Q3 = 0.1, fences −0.4 and 0.4
    expect(rr.steps).toEqual([{ step: "Tukey's fences on the log ratios", removed: 0, remaining: 60 }]);
    expect(rr.pairsUsed).toBe(60);
    expect(rr.cvTotal).toBeCloseTo(cvFromSd(sdRatio), 10);
    expect(rr.cvTotal).toBeCloseTo(7.3528, 3);
  });

  it('two pairs with log ratio 1.0 fall outside the fences and are counted; the rest is unchanged', () => {
    const est = estimateIndirect(pairsWithLogRatios([...symmetric, 1, 1]), options());
    const rr = method(est.all.methods, 'result_ratio');
    expect(rr.steps).toEqual([{ step: "Tukey's fences on the log ratios", removed: 2, remaining: 60 }]);
    expect(rr.cvTotal).toBeCloseTo(cvFromSd(sdRatio), 10);
  });

  it('CVI, the RCV from the model and from the formula, with CVA 3 %', () => {
    const est = estimateIndirect(pairsWithLogRatios(symmetric), options({ cva: 3 }));
    const rr = method(est.all.methods, 'result_ratio');
    const cvt = cvFromSd(sdRatio);
    const cvi = Math.sqrt(cvt * cvt - 9);
    expect(rr.cvi).toBeCloseTo(cvi, 10);
    // the model: log ratio ~ N(0, sd²); its 2.5th and 97.5th percentiles
    expect(rr.rcvModel.up).toBeCloseTo(100 * Math.expm1(Z95 * sdRatio), 8);
    expect(rr.rcvModel.down).toBeCloseTo(-100 * Math.expm1(-Z95 * sdRatio), 8);
    const formula = rcvAsymmetric(cvi, 3, Z95);
    expect(rr.rcvFormula?.up).toBeCloseTo(formula.up, 10);
    expect(rr.rcvFormula?.down).toBeCloseTo(-formula.down, 10);
    expect(rr.cviInterval).not.toBeNull();
  });

  it("draws the histogram of the log ratios with the model's expected counts over it", () => {
    const est = estimateIndirect(pairsWithLogRatios(symmetric), options());
    const rr = method(est.all.methods, 'result_ratio');
    expect(rr.histogram).toHaveLength(HISTOGRAM_BINS);
    expect(rr.histogram[0]?.count).toBe(30);
    expect(rr.histogram[0]?.from).toBeCloseTo(-0.1, 12);
    expect(rr.histogram.at(-1)).toMatchObject({ count: 30 });
    expect(rr.histogram.at(-1)?.to).toBeCloseTo(0.1, 12);
    // the model stands for 60 pairs inside the fences [−0.4, 0.4]; the histogram spans [−0.1, 0.1]
    const inFences = normalCdf(0.4 / sdRatio) - normalCdf(-0.4 / sdRatio);
    const inRange = normalCdf(0.1 / sdRatio) - normalCdf(-0.1 / sdRatio);
    const sum = rr.fitted.reduce((a, b) => a + b, 0);
    expect(sum).toBeCloseTo((60 * inRange) / inFences, 8);
  });
});

describe('expected mean squares, by hand', () => {
  it('MS_W = Σ(ln x₂ − ln x₁)²/(2n) = 0.005, so CV_total = 100·√(e^0.005 − 1)', () => {
    const est = estimateIndirect(pairsWithLogRatios([...symmetric, 1, 1]), options());
    const ems = method(est.all.methods, 'expected_mean_squares');
    const msW = (60 * 0.01 + 2 * 1) / (2 * 62);
    expect(ems.cvTotal).toBeCloseTo(100 * Math.sqrt(Math.expm1(msW)), 10);
    expect(ems.pairsUsed).toBe(62);
    expect(ems.steps[0]?.removed).toBe(0);
  });
});

describe('central-peak fit', () => {
  it('recovers the spread of clean log-normal ratios and leaves the far tails out', () => {
    // log ratios at the normal quantiles of 400 evenly spaced probabilities, SD 0.08, plus 40 far ones
    const ys = Array.from({ length: 400 }, (_, i) => 0.08 * Math.SQRT2 * inverseErf((i + 0.5) / 200 - 1));
    const far = Array.from({ length: 40 }, (_, i) => (i % 2 ? 1 : -1) * (0.6 + i / 100));
    const est = estimateIndirect(pairsWithLogRatios([...ys, ...far]), options());
    const cp = method(est.all.methods, 'central_peak');
    expect(cp.cvTotal / cvFromSd(0.08)).toBeGreaterThan(0.97);
    expect(cp.cvTotal / cvFromSd(0.08)).toBeLessThan(1.03);
    expect(cp.steps[0]?.step).toBe('outside the central peak');
    expect(cp.steps[0]?.removed).toBeGreaterThanOrEqual(40);
    expect(cp.pairsUsed + (cp.steps[0]?.removed ?? 0)).toBe(440);
  });
});

/** erf⁻¹ through the normal quantile's inverse (bisection on normalCdf; test helper only). */
function inverseErf(x: number): number {
  const p = (x + 1) / 2;
  let lo = -10;
  let hi = 10;
  for (let k = 0; k < 200; k++) {
    const mid = (lo + hi) / 2;
    if (normalCdf(mid) < p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2 / Math.SQRT2;
}

describe('pairing', () => {
  const o = options();

  it("sorts each patient's results by time and pairs consecutive ones 1–30 days apart, ends included", () => {
    const rows: RoutineResult[] = [
      { patient: 'a', time: T0 + 31 * DAY, value: 4 }, // 30 days after the next: kept
      { patient: 'a', time: T0 + 1 * DAY, value: 2 },
      { patient: 'a', time: T0, value: 1 }, // 1 day before the previous: kept
      { patient: 'a', time: T0 + 63 * DAY, value: 8 }, // 32 days: outside
      { patient: 'b', time: T0, value: 1 },
      { patient: 'b', time: T0 + 0.5 * DAY, value: 1 }, // half a day: outside
    ];
    const p = pairResults(rows, o);
    expect(Array.from(p.x1)).toEqual([1, 2]);
    expect(Array.from(p.x2)).toEqual([2, 4]);
    expect(p.summary).toMatchObject({ results: 6, patients: 2, droppedDuplicateTimes: 0, pairs: 2 });
    expect(p.summary.steps).toEqual([{ step: PAIRING_STEPS.interval, removed: 2, remaining: 2 }]);
  });

  it('drops and counts every result that shares its time with another of the same patient', () => {
    const rows: RoutineResult[] = [
      { patient: 'a', time: T0, value: 1 },
      { patient: 'a', time: T0 + 7 * DAY, value: 2 },
      { patient: 'a', time: T0 + 7 * DAY, value: 3 },
      { patient: 'a', time: T0 + 14 * DAY, value: 4 },
      { patient: 'b', time: T0 + 7 * DAY, value: 5 }, // same time, other patient: fine
    ];
    const p = pairResults(rows, o);
    expect(p.summary.droppedDuplicateTimes).toBe(2);
    // 1 at day 0 and 4 at day 14 are now consecutive
    expect(Array.from(p.x1)).toEqual([1]);
    expect(Array.from(p.x2)).toEqual([4]);
  });

  it('drops and counts results that are zero, negative or not numbers (no ratio)', () => {
    const rows: RoutineResult[] = [
      { patient: 'a', time: T0, value: 0 },
      { patient: 'a', time: T0 + 2 * DAY, value: -1 },
      { patient: 'a', time: T0 + 3 * DAY, value: Number.NaN },
      { patient: 'a', time: T0 + 4 * DAY, value: 5 },
      { patient: 'a', time: T0 + 5 * DAY, value: 6 },
    ];
    const p = pairResults(rows, o);
    expect(p.summary.pairs).toBe(1);
    expect(p.summary.steps[0]).toEqual({ step: PAIRING_STEPS.notPositive, removed: 3, remaining: 2 });
  });

  it('keeps one pair per patient (the earliest) when asked, and counts the others', () => {
    const rows = [0, 7, 14, 21].map((d, k) => ({ patient: 'a', time: T0 + d * DAY, value: 10 + k }));
    expect(pairResults(rows, o).summary.pairs).toBe(3);
    const one = pairResults(rows, { ...o, pairsPerPatient: 'one' });
    expect(Array.from(one.x1)).toEqual([10]);
    expect(one.summary.steps.at(-1)).toEqual({ step: PAIRING_STEPS.onePerPatient, removed: 2, remaining: 1 });
  });

  it('keeps only pairs whose first result lies in the given range', () => {
    const rows = [3, 5, 9, 4].map((v, k) => ({ patient: 'a', time: T0 + 7 * k * DAY, value: v }));
    const p = pairResults(rows, { ...o, firstResultRange: { low: 3.5, high: 8 } });
    expect(Array.from(p.x1)).toEqual([5]);
    expect(p.summary.steps).toContainEqual({ step: PAIRING_STEPS.firstRange, removed: 2, remaining: 1 });
  });
});

describe('refusals and notes', () => {
  it('fewer than 50 pairs: a typed error that says how many there were', () => {
    const rows = pairsWithLogRatios(Array<number>(49).fill(0.05));
    expect(() => estimateIndirect(rows, options())).toThrow(TooFewPairsError);
    expect(() => estimateIndirect(rows, options())).toThrow(/only 49 pairs .* at least 50/);
    try {
      estimateIndirect(rows, options());
    } catch (e) {
      expect(e).toMatchObject({ pairs: 49, minimum: 50 });
    }
  });

  it('without a CVA: CV_total only, no CVI, interval or formula RCV, and says so', () => {
    const est = estimateIndirect(pairsWithLogRatios(symmetric), options());
    for (const m of est.all.methods) {
      expect(m.cvi).toBeNull();
      expect(m.cviInterval).toBeNull();
      expect(m.rcvFormula).toBeNull();
      expect(m.note).toMatch(/no CVA given/);
      expect(m.rcvModel.up).toBeGreaterThan(0);
    }
  });

  it('a CVA not below CV_total gives no CVI and says why', () => {
    const est = estimateIndirect(pairsWithLogRatios(symmetric), options({ cva: 20 }));
    expect(method(est.all.methods, 'result_ratio').note).toMatch(/CVA \(20 %\) is not below CV_total/);
  });

  it('the same seed repeats the bootstrap interval exactly', () => {
    const ys = Array.from({ length: 120 }, (_, i) => Math.sin(i * 12.9898) * 0.1);
    const a = estimateIndirect(pairsWithLogRatios(ys), options({ cva: 2, seed: 7 }));
    const b = estimateIndirect(pairsWithLogRatios(ys), options({ cva: 2, seed: 7 }));
    const c = estimateIndirect(pairsWithLogRatios(ys), options({ cva: 2, seed: 8 }));
    expect(a.all.methods.map((m) => m.cviInterval)).toEqual(b.all.methods.map((m) => m.cviInterval));
    expect(a.all.methods.map((m) => m.cviInterval)).not.toEqual(c.all.methods.map((m) => m.cviInterval));
  });

  it('no patient id and no date appears anywhere in the answer', () => {
    const rows = pairsWithLogRatios(symmetric).map((r) => ({
      ...r,
      patient: `secret-${r.patient}`,
      time: r.time + 123_456,
    }));
    const text = JSON.stringify(estimateIndirect(rows, options({ cva: 2 })));
    expect(text).not.toMatch(/secret|pt-/);
    expect(text).not.toContain(String(T0 + 123_456));
  });
});

describe('strata', () => {
  it('age bands: <18, 18–64, ≥65 by age at the result', () => {
    expect([0, 17.99, 18, 64.99, 65, 101].map(ageBand)).toEqual([
      '<18',
      '<18',
      '18–64',
      '18–64',
      '≥65',
      '≥65',
    ]);
    expect(ageBand(-1)).toBeNull();
  });

  it('each sex, age band and setting present is its own stratum, paired within it, with its own N', () => {
    const women = pairsWithLogRatios(symmetric, { sex: 'female', age: 40, setting: 'outpatient' });
    const men = pairsWithLogRatios(Array<number>(20).fill(0.02), {
      sex: 'male',
      age: 70,
      setting: 'inpatient',
    }).map((r) => ({ ...r, patient: `m-${r.patient}` }));
    const est = estimateIndirect([...women, ...men], options({ cva: 2 }));
    expect(est.all.pairing.pairs).toBe(80);
    const keys = est.strata.map((s) => s.key);
    expect(keys).toEqual([
      { sex: 'female' },
      { sex: 'male' },
      { ageBand: '18–64' },
      { ageBand: '≥65' },
      { setting: 'inpatient' },
      { setting: 'outpatient' },
    ]);
    const female = est.strata[0];
    expect(female?.pairing.pairs).toBe(60);
    expect(female?.methods).toHaveLength(3);
    expect(method(female?.methods ?? [], 'result_ratio').cvTotal).toBeCloseTo(cvFromSd(sdRatio), 10);
    const male = est.strata[1];
    expect(male?.pairing.pairs).toBe(20);
    expect(male?.methods).toEqual([]);
    expect(male?.note).toMatch(/only 20 pairs/);
  });

  it('a pair never spans two strata: results in different age bands are not paired in either', () => {
    const rows: RoutineResult[] = pairsWithLogRatios(symmetric).map((r, i) => ({
      ...r,
      age: i % 2 === 0 ? 64.9 : 65.0,
    }));
    const est = estimateIndirect(rows, options());
    expect(est.all.pairing.pairs).toBe(60);
    for (const s of est.strata) expect(s.pairing.pairs).toBe(0);
  });
});

describe('coarse results', () => {
  it('IQR 0 (most ratios exactly 1): Tukey excludes nothing and says so; the central peak warns', () => {
    // 54 pairs 140 → 140 and 6 pairs 140 → 141
    const rows = pairsWithLogRatios(
      Array.from({ length: 60 }, (_, i) => (i % 10 === 0 ? Math.log(141 / 140) : 0)),
    );
    const est = estimateIndirect(rows, options());
    const rr = method(est.all.methods, 'result_ratio');
    expect(rr.steps).toEqual([{ step: TUKEY_SKIPPED_STEP, removed: 0, remaining: 60 }]);
    const y = Math.log(141 / 140);
    const mean = (6 * y) / 60;
    // nothing trimmed, so no consistency factor either
    const sd = Math.sqrt((6 * (y - mean) ** 2 + 54 * mean ** 2) / 59);
    expect(rr.cvTotal).toBeCloseTo(cvFromSd(sd), 8);
    expect(rr.fitted.every(Number.isFinite)).toBe(true);
    expect(method(est.all.methods, 'central_peak').note).toMatch(/too coarse/);
  });
});
