import { cochranC } from './cochran.js';
import type { NestedData } from './anova.js';
import type { EstimationOptions, EstimationRow, Exclusion } from './types.js';

export interface Sample {
  id: string;
  values: number[];
}
export interface Subject {
  id: string;
  samples: Sample[];
}

export const mean = (v: readonly number[]): number => v.reduce((s, x) => s + x, 0) / v.length;
const variance = (v: readonly number[]): number => {
  const m = mean(v);
  return v.reduce((s, x) => s + (x - m) ** 2, 0) / (v.length - 1);
};
/** Sample labels in numeric order ("2" before "10"): the sample number of the steady-state regression. */
export const collator = new Intl.Collator('en', { numeric: true });

/** The rows with a value, nested as subjects → samples → replicate values (nulls are left out). */
export function nest(rows: readonly EstimationRow[]): Subject[] {
  const subjects = new Map<string, Map<string, number[]>>();
  for (const r of rows) {
    if (r.value === null || !Number.isFinite(r.value)) continue;
    let s = subjects.get(r.subject);
    if (!s) subjects.set(r.subject, (s = new Map<string, number[]>()));
    let sample = s.get(r.sample);
    if (!sample) s.set(r.sample, (sample = []));
    sample.push(r.value);
  }
  return [...subjects].map(([id, s]) => ({
    id,
    samples: [...s]
      .map(([sid, values]) => ({ id: sid, values }))
      .sort((a, b) => collator.compare(a.id, b.id)),
  }));
}

export const toData = (subjects: readonly Subject[]): NestedData =>
  subjects.map((s) => s.samples.map((x) => x.values));
export const sampleMeans = (s: Subject): number[] => s.samples.map((x) => mean(x.values));

/** Cochran's C on the replicate variances of each subject × sample, repeated until none is outlying. */
export function replicateStep(subjects: Subject[], o: EstimationOptions, out: Exclusion[]): Subject[] {
  let kept = subjects;
  for (;;) {
    const units = kept.flatMap((s) => s.samples.filter((x) => x.values.length >= 2).map((x) => ({ s, x })));
    const df = mean(units.map((u) => u.x.values.length - 1));
    const c = cochranC(
      units.map((u) => variance(u.x.values)),
      df,
      o.alpha,
    );
    if (!c?.outlying) return kept;
    const { s, x } = units[c.index]!;
    out.push({
      step: 'replicate_cochran',
      subject: s.id,
      sample: x.id,
      statistic: c.c,
      critical: c.critical,
      p: c.p,
    });
    kept =
      o.replicate_outlier === 'subject'
        ? kept.filter((k) => k !== s)
        : kept
            .map((k) => (k === s ? { ...k, samples: k.samples.filter((y) => y !== x) } : k))
            .filter((k) => k.samples.length > 0);
  }
}

/** Cochran's C on the within-subject variances of the sample means, repeated. */
export function sampleStep(subjects: Subject[], o: EstimationOptions, out: Exclusion[]): Subject[] {
  let kept = subjects;
  for (;;) {
    const tested = kept.filter((s) => s.samples.length >= 2);
    const df = mean(tested.map((s) => s.samples.length - 1));
    const c = cochranC(
      tested.map((s) => variance(sampleMeans(s))),
      df,
      o.alpha,
    );
    if (!c?.outlying) return kept;
    const s = tested[c.index]!;
    out.push({ step: 'sample_cochran', subject: s.id, statistic: c.c, critical: c.critical, p: c.p });
    kept = kept.filter((k) => k !== s);
  }
}

/**
 * Reed's criterion on the subject means (Reed, Henry & Mason, Clin Chem 1971;17:275-84): the lowest or
 * highest mean is outlying when its gap to the next exceeds one third of the range; one removal per
 * pass, repeated. The LOW end is examined first, then the high end, as the published BV estimation
 * scripts do (R function `bs.reed.func` of the "Biological-variation-estimation" scripts of van
 * Winden et al., Clin Chim Acta 2021, after Røraas et al.: `if (a > c)` removes the lowest mean,
 * `else if (b > c)` the highest); docs/decisions/084.
 */
export function reedStep(subjects: Subject[], out: Exclusion[]): Subject[] {
  let kept = subjects;
  for (;;) {
    if (kept.length < 3) return kept;
    const ranked = kept.map((s) => ({ s, m: mean(sampleMeans(s)) })).sort((a, b) => a.m - b.m);
    const n = ranked.length;
    const range = ranked[n - 1]!.m - ranked[0]!.m;
    if (!(range > 0)) return kept;
    const high = (ranked[n - 1]!.m - ranked[n - 2]!.m) / range;
    const low = (ranked[1]!.m - ranked[0]!.m) / range;
    const pick =
      low > 1 / 3 ? { r: ranked[0]!, g: low } : high > 1 / 3 ? { r: ranked[n - 1]!, g: high } : null;
    if (!pick) return kept;
    out.push({ step: 'reed', subject: pick.r.s.id, statistic: pick.g, critical: 1 / 3, p: null });
    kept = kept.filter((k) => k !== pick.r.s);
  }
}
