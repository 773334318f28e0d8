/**
 * Pairing of routine results (issue 46.1, 46.5): per patient, results in time order; consecutive
 * results whose interval lies within minDays–maxDays make a pair (Jones GRD, Clin Chem
 * 2019;65:579-88: consecutive-result pairs from a laboratory system). Nothing from a result leaves
 * this file but numbers: the pairs carry values, never the patient id or a date.
 */
import type { ExclusionStep, IndirectOptions, PairingSummary, RoutineResult } from './types.js';

const DAY_MS = 86_400_000;

/** The pairs of one stratum, grouped by patient (pairs of one patient are contiguous). */
export interface Pairs {
  readonly x1: Float64Array;
  readonly x2: Float64Array;
  /** Index of the pair's patient, 0…patients−1, in pair order (non-decreasing). */
  readonly patient: Int32Array;
  readonly patients: number;
  readonly summary: PairingSummary;
}

/** Step names, in the order they run; the page shows them as written. */
export const PAIRING_STEPS = {
  notPositive: 'value zero, negative or not a number (no ratio)',
  interval: 'interval outside the allowed days',
  firstRange: 'first result outside the given range',
  onePerPatient: 'more than one pair per patient',
} as const;

/**
 * Pairs consecutive results of each patient. A patient's results are sorted by time; results that
 * share a time with another result of the same patient are all dropped and counted (which came first
 * cannot be known); results without a positive, finite value are dropped (a ratio needs both). Then
 * each consecutive pair with minDays ≤ Δt ≤ maxDays is kept, optionally only those whose first
 * result lies in firstResultRange, and with pairsPerPatient 'one' only the earliest such pair.
 */
export function pairResults(results: readonly RoutineResult[], options: IndirectOptions): Pairs {
  const byPatient = new Map<string, RoutineResult[]>();
  for (const r of results) {
    const list = byPatient.get(r.patient);
    if (list) list.push(r);
    else byPatient.set(r.patient, [r]);
  }
  const minMs = options.minDays * DAY_MS;
  const maxMs = options.maxDays * DAY_MS;
  const range = options.firstResultRange;

  let duplicates = 0;
  let notPositive = 0;
  let candidates = 0;
  let outsideInterval = 0;
  let outsideRange = 0;
  let extraPerPatient = 0;
  const x1: number[] = [];
  const x2: number[] = [];
  const patientOfPair: number[] = [];
  let patientIndex = 0;

  for (const list of byPatient.values()) {
    list.sort((a, b) => a.time - b.time);
    const kept: RoutineResult[] = [];
    for (let i = 0; i < list.length; i++) {
      const r = list[i] as RoutineResult;
      const sharesTime =
        (i > 0 && (list[i - 1] as RoutineResult).time === r.time) ||
        (i + 1 < list.length && (list[i + 1] as RoutineResult).time === r.time);
      if (sharesTime || !Number.isFinite(r.time)) {
        duplicates++;
        continue;
      }
      if (!Number.isFinite(r.value) || r.value <= 0) {
        notPositive++;
        continue;
      }
      kept.push(r);
    }
    let pairsOfPatient = 0;
    for (let i = 1; i < kept.length; i++) {
      const a = kept[i - 1] as RoutineResult;
      const b = kept[i] as RoutineResult;
      candidates++;
      const dt = b.time - a.time;
      if (dt < minMs || dt > maxMs) {
        outsideInterval++;
        continue;
      }
      if (range && (a.value < range.low || a.value > range.high)) {
        outsideRange++;
        continue;
      }
      if (options.pairsPerPatient === 'one' && pairsOfPatient > 0) {
        extraPerPatient++;
        continue;
      }
      pairsOfPatient++;
      x1.push(a.value);
      x2.push(b.value);
      patientOfPair.push(patientIndex);
    }
    if (pairsOfPatient > 0) patientIndex++;
  }

  const steps: ExclusionStep[] = [];
  let remaining = candidates;
  const add = (step: string, removed: number) => {
    remaining -= removed;
    steps.push({ step, removed, remaining });
  };
  add(PAIRING_STEPS.interval, outsideInterval);
  if (range) add(PAIRING_STEPS.firstRange, outsideRange);
  if (options.pairsPerPatient === 'one') add(PAIRING_STEPS.onePerPatient, extraPerPatient);

  const summary: PairingSummary = {
    results: results.length,
    patients: byPatient.size,
    droppedDuplicateTimes: duplicates,
    pairs: x1.length,
    steps:
      notPositive > 0
        ? [
            {
              step: PAIRING_STEPS.notPositive,
              removed: notPositive,
              remaining: results.length - duplicates - notPositive,
            },
            ...steps,
          ]
        : steps,
  };
  return {
    x1: Float64Array.from(x1),
    x2: Float64Array.from(x2),
    patient: Int32Array.from(patientOfPair),
    patients: patientIndex,
    summary,
  };
}

/** Age bands of the strata (years at the result): children, adults, older adults. */
export const AGE_BANDS = [
  { label: '<18', low: 0, high: 18 },
  { label: '18–64', low: 18, high: 65 },
  { label: '≥65', low: 65, high: Infinity },
] as const;

export function ageBand(age: number): string | null {
  if (!Number.isFinite(age) || age < 0) return null;
  for (const band of AGE_BANDS) if (age >= band.low && age < band.high) return band.label;
  return null;
}

/**
 * The strata a file allows: by sex, by age band and by setting, each present value its own subset of
 * the results (paired again within it, so a pair never spans two strata).
 */
export function strataOf(
  results: readonly RoutineResult[],
): { key: Record<string, string>; results: RoutineResult[] }[] {
  const groups = new Map<string, { key: Record<string, string>; results: RoutineResult[] }>();
  const put = (dimension: string, value: string, r: RoutineResult) => {
    const id = `${dimension}=${value}`;
    const g = groups.get(id);
    if (g) g.results.push(r);
    else groups.set(id, { key: { [dimension]: value }, results: [r] });
  };
  for (const r of results) {
    if (r.sex) put('sex', r.sex, r);
    if (r.age !== undefined) {
      const band = ageBand(r.age);
      if (band) put('ageBand', band, r);
    }
    if (r.setting) put('setting', r.setting, r);
  }
  const order = (id: string): number => {
    const [dimension, value] = id.split('=') as [string, string];
    const d = ['sex', 'ageBand', 'setting'].indexOf(dimension);
    const v =
      dimension === 'sex'
        ? ['female', 'male'].indexOf(value)
        : dimension === 'ageBand'
          ? AGE_BANDS.findIndex((b) => b.label === value)
          : ['inpatient', 'outpatient', 'primary_care'].indexOf(value);
    return d * 10 + v;
  };
  return [...groups.entries()].sort((a, b) => order(a[0]) - order(b[0])).map(([, g]) => g);
}
