import type { EstimationResponse } from '@bvdb/contract';
import {
  describeEstimationDesign,
  describeSampling,
  exclusionOf,
  type EstimationResult,
  type SamplingSummary,
} from '@bvdb/domain';
import type { ReadRows } from './estimation-input.js';

/** Rows without a value listed in the answer (all are counted). */
const MISSING_LISTED = 200;

/** Non-finite numbers (an infinite upper limit, 0/0) become null: JSON has neither. */
function finite(value: unknown): unknown {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (Array.isArray(value)) return value.map(finite);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, finite(v)]));
  }
  return value;
}

/** The sampling the date column shows (null without one): each subject × sample's first dated row. */
function samplingOf(input: ReadRows): SamplingSummary | null {
  if (!input.dates) return null;
  const dated = input.rows
    .map((r, i) => ({ subject: r.subject, sample: r.sample, date: input.dates![i] ?? '' }))
    .filter((d) => d.date !== '');
  return describeSampling(dated);
}

/** The engine's result, the input as read (mapping, missing values, design) and each subject's points. */
export function presentEstimation(result: EstimationResult, input: ReadRows): EstimationResponse {
  const design = describeEstimationDesign(input.rows);
  const bySubject = new Map<string, EstimationResponse['subjects'][number]>();
  const removesSubject = result.options.replicate_outlier === 'subject';
  for (const r of input.rows) {
    let s = bySubject.get(r.subject);
    if (!s) bySubject.set(r.subject, (s = { subject: r.subject, group: r.group ?? null, points: [] }));
    if (r.value === null || !Number.isFinite(r.value)) continue;
    s.points.push({
      sample: r.sample,
      replicate: String(r.replicate),
      value: r.value,
      excluded: exclusionOf(result.excluded, r.subject, r.sample, removesSubject),
    });
  }
  const { missing, ...designReport } = design;
  return {
    ...(finite(result) as Omit<EstimationResponse, 'input' | 'subjects'>),
    input: {
      format: input.format,
      columns: input.columns,
      rows: input.rows.length,
      missing: {
        count: missing.length,
        rows: missing.slice(0, MISSING_LISTED).map((i) => {
          const r = input.rows[i]!;
          return {
            row: input.lines[i]!,
            subject: r.subject,
            sample: r.sample,
            replicate: String(r.replicate),
          };
        }),
      },
      design: designReport,
      sampling: samplingOf(input),
      notes: input.notes,
    },
    subjects: [...bySubject.values()],
  };
}
