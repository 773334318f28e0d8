import { collator } from './outliers.js';
import type { EstimationRow, Exclusion } from './types.js';

export interface DesignSubject {
  subject: string;
  group: string | null;
  /** samples with at least one result */
  samples: number;
  results: number;
  missing: number;
}

export interface EstimationDesign {
  /** every subject has the same samples, every sample the same number of replicates, nothing missing */
  balanced: boolean;
  samples_per_subject: { min: number; max: number };
  replicates_per_sample: { min: number; max: number };
  samples_with_one_replicate: number;
  subjects: DesignSubject[];
  /** indexes (into the rows) of the rows without a value */
  missing: number[];
}

const isValue = (v: number | null): v is number => v !== null && Number.isFinite(v);

/**
 * The design as read, before any exclusion: what is unbalanced and what is missing is reported, never
 * filled in (issue 31 point 1). Subjects in the order of the rows, samples counted when they hold a
 * result.
 */
export function describeEstimationDesign(rows: readonly EstimationRow[]): EstimationDesign {
  const subjects = new Map<string, { group: string | null; samples: Map<string, number>; missing: number }>();
  const missing: number[] = [];
  rows.forEach((r, i) => {
    let s = subjects.get(r.subject);
    if (!s) subjects.set(r.subject, (s = { group: r.group || null, samples: new Map(), missing: 0 }));
    if (!isValue(r.value)) {
      missing.push(i);
      s.missing++;
      return;
    }
    s.samples.set(r.sample, (s.samples.get(r.sample) ?? 0) + 1);
  });
  const list: DesignSubject[] = [...subjects].map(([subject, s]) => ({
    subject,
    group: s.group,
    samples: s.samples.size,
    results: [...s.samples.values()].reduce((a, b) => a + b, 0),
    missing: s.missing,
  }));
  const perSubject = list.map((s) => s.samples);
  const replicates = [...subjects.values()].flatMap((s) => [...s.samples.values()]);
  const range = (v: number[]) =>
    v.length ? { min: Math.min(...v), max: Math.max(...v) } : { min: 0, max: 0 };
  const sampleSets = [...subjects.values()].map((s) =>
    [...s.samples.keys()].sort(collator.compare).join('\u0001'),
  );
  const reps = range(replicates);
  return {
    balanced:
      missing.length === 0 && new Set(sampleSets).size <= 1 && reps.min === reps.max && list.length > 0,
    samples_per_subject: range(perSubject),
    replicates_per_sample: reps,
    samples_with_one_replicate: replicates.filter((n) => n === 1).length,
    subjects: list,
    missing,
  };
}

/**
 * The step that left out a result of this subject and sample, or null when it was kept: a replicate
 * outlier removes its sample (or its subject when `replicate_outlier` is "subject"); the other steps
 * remove subjects.
 */
export function exclusionOf(
  excluded: readonly Exclusion[],
  subject: string,
  sample: string,
  replicateRemovesSubject: boolean,
): Exclusion['step'] | null {
  for (const e of excluded) {
    if (e.subject !== subject) continue;
    if (e.step !== 'replicate_cochran' || replicateRemovesSubject || e.sample === sample) return e.step;
  }
  return null;
}
