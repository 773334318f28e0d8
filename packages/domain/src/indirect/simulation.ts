/**
 * The simulation study of issue 46 ("How we know it is right"): a seeded regeneration of the design
 * of Tan RZ, Markus C, Vasikaran S, Loh TP (Clin Chem Lab Med 2022;60:636-44): paired serial results
 * of 5,000 patients per scenario, from four parameters — d, the % difference between the means of the
 * pathological and non-pathological populations; CVi, the within-subject CV of the non-pathological;
 * f, the fraction of pathological patients; e, the relative increase of the pathological CVi — 128
 * scenarios in all, each method counted as recovering the CVi when within ±20 % of the truth. The
 * grid values are not in the abstract we could read; SIMULATION_GRID is bvdb's reconstruction
 * (docs/domain/indirect-bv.md says so and why).
 */
import { mulberry32 } from '../prng.js';
import {
  centralPeak,
  type CoreEstimator,
  expectedMeanSquares,
  resultRatioTukey,
  resultRatioTukeyPlain,
} from './methods.js';
import { pairResults } from './pairing.js';
import { toSample } from './sample.js';
import { weigh } from './stats.js';
import type { IndirectOptions, RoutineResult } from './types.js';

export interface Scenario {
  /** % difference of the pathological patients' mean set point. */
  readonly d: number;
  /** Within-subject CV of the non-pathological patients, % (the truth to recover). */
  readonly cvi: number;
  /** Fraction of pathological patients. */
  readonly f: number;
  /** Relative increase of the pathological patients' CVi (their CVi = e·cvi). */
  readonly e: number;
}

/** 4 × 4 × 4 × 2 = 128 scenarios (bvdb's reconstruction of the published grid). */
export const SIMULATION_GRID = {
  d: [10, 25, 50, 100],
  cvi: [5, 10, 15, 20],
  f: [0.05, 0.1, 0.2, 0.3],
  e: [2, 3],
} as const;

export function scenarios(grid = SIMULATION_GRID): Scenario[] {
  const out: Scenario[] = [];
  for (const d of grid.d)
    for (const cvi of grid.cvi) for (const f of grid.f) for (const e of grid.e) out.push({ d, cvi, f, e });
  return out;
}

export interface SimulationDesign {
  readonly patients: number;
  /** Mean of the healthy set points and their between-subject CV, %. */
  readonly mean: number;
  readonly cvg: number;
  /** Analytical CV, % (added to every result; given to the methods as the CVA). */
  readonly cva: number;
  /** Days between the two results of a patient (within the default 1–30). */
  readonly days: number;
}

export const DEFAULT_DESIGN: SimulationDesign = { patients: 5000, mean: 100, cvg: 20, cva: 2, days: 7 };

/** A standard normal deviate (Box–Muller) from a uniform PRNG. */
export function gaussian(rng: () => number): () => number {
  let spare: number | null = null;
  return () => {
    if (spare !== null) {
      const s = spare;
      spare = null;
      return s;
    }
    let u = 0;
    while (u === 0) u = rng();
    const v = rng();
    const r = Math.sqrt(-2 * Math.log(u));
    spare = r * Math.sin(2 * Math.PI * v);
    return r * Math.cos(2 * Math.PI * v);
  };
}

const logSd = (cv: number) => Math.sqrt(Math.log1p((cv / 100) ** 2));

/**
 * Two results per patient, log-normal throughout: set point = mean·exp(N(0, σ_G)) (× (1 + d/100) for
 * a pathological patient); each result = set point·exp(N(0, σ_I))·exp(N(0, σ_A)), σ_I from cvi (or
 * e·cvi when pathological), σ = √ln(1 + CV²).
 */
export function simulateResults(
  scenario: Scenario,
  seed: number,
  design: SimulationDesign = DEFAULT_DESIGN,
): RoutineResult[] {
  const z = gaussian(mulberry32(seed));
  const sg = logSd(design.cvg);
  const sa = logSd(design.cva);
  const out: RoutineResult[] = [];
  const pathological = Math.round(scenario.f * design.patients);
  for (let p = 0; p < design.patients; p++) {
    const sick = p < pathological;
    const setPoint = design.mean * Math.exp(sg * z()) * (sick ? 1 + scenario.d / 100 : 1);
    const si = logSd(sick ? scenario.e * scenario.cvi : scenario.cvi);
    const id = `p${p}`;
    for (let k = 0; k < 2; k++) {
      const value = setPoint * Math.exp(si * z() + sa * z());
      out.push({ patient: id, time: Date.UTC(2024, 0, 1) + k * design.days * 86_400_000, value });
    }
  }
  return out;
}

/**
 * The healthy population's central 95 % (the reference interval a laboratory would give as the
 * first-result range): median·exp(±1.96·√(σ²_G + σ²_I + σ²_A)), σ = √ln(1 + CV²).
 */
export function healthyReferenceInterval(
  scenario: Scenario,
  design: SimulationDesign = DEFAULT_DESIGN,
): { low: number; high: number } {
  const sd = Math.sqrt(logSd(design.cvg) ** 2 + logSd(scenario.cvi) ** 2 + logSd(design.cva) ** 2);
  return { low: design.mean * Math.exp(-1.959964 * sd), high: design.mean * Math.exp(1.959964 * sd) };
}

export interface SimulatedMethod {
  readonly estimator: CoreEstimator;
  /** Pairs only whose first result lies in the healthy reference interval. */
  readonly firstInReferenceInterval: boolean;
  /** Scenarios within ±20 % in Tan et al. 2022 (null: not in that comparison). */
  readonly published: number | null;
}

export const SIMULATED_METHODS: Record<string, SimulatedMethod> = {
  'result ratio, Tukey': { estimator: resultRatioTukeyPlain, firstInReferenceInterval: false, published: 78 },
  'modified result ratio, Tukey (first result in RI)': {
    estimator: resultRatioTukey,
    firstInReferenceInterval: true,
    published: 114,
  },
  'expected mean squares': {
    estimator: expectedMeanSquares,
    firstInReferenceInterval: false,
    published: 101,
  },
  'central peak (Box–Cox normal)': {
    estimator: centralPeak,
    firstInReferenceInterval: false,
    published: null,
  },
  'central peak, first result in RI': {
    estimator: centralPeak,
    firstInReferenceInterval: true,
    published: null,
  },
};

export interface SimulationRow {
  readonly method: string;
  readonly published: number | null;
  readonly recovered: number;
  readonly scenarios: number;
  /** Median and worst |fractional error| over the scenarios. */
  readonly medianError: number;
  readonly worstError: number;
}

const PAIRING: IndirectOptions = {
  minDays: 1,
  maxDays: 30,
  pairsPerPatient: 'all',
  methods: [],
  probability: 0.95,
  bootstrap: 0,
  seed: 0,
};

/**
 * Runs every method on every scenario (one seeded data set each) and counts the scenarios whose
 * CVI = √(CV_total² − CVA²) lies within ±20 % of the true (non-pathological) CVi.
 */
export function runSimulationStudy(
  list: readonly Scenario[] = scenarios(),
  seed = 2022,
  design: SimulationDesign = DEFAULT_DESIGN,
): { rows: SimulationRow[]; errors: Record<string, number[]> } {
  const errors: Record<string, number[]> = {};
  for (const name of Object.keys(SIMULATED_METHODS)) errors[name] = [];
  list.forEach((scenario, i) => {
    const results = simulateResults(scenario, seed + i, design);
    const all = toSample(pairResults(results, PAIRING));
    const inRange = toSample(
      pairResults(results, { ...PAIRING, firstResultRange: healthyReferenceInterval(scenario, design) }),
    );
    for (const [name, m] of Object.entries(SIMULATED_METHODS)) {
      const s = m.firstInReferenceInterval ? inRange : all;
      const fit = m.estimator(weigh(s.y, null));
      const cvi = Math.sqrt(Math.max(fit.cvTotal ** 2 - design.cva ** 2, 0));
      errors[name]?.push(cvi / scenario.cvi - 1);
    }
  });
  const rows = Object.entries(SIMULATED_METHODS).map(([method, { published }]) => {
    const e = (errors[method] ?? []).map(Math.abs).sort((a, b) => a - b);
    return {
      method,
      published,
      recovered: e.filter((x) => x <= 0.2).length,
      scenarios: e.length,
      medianError: e[Math.floor(e.length / 2)] ?? NaN,
      worstError: e[e.length - 1] ?? NaN,
    };
  });
  return { rows, errors };
}
