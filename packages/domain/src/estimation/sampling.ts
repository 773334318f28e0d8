import type { TimeUnit } from '../lookups.js';

/** One dated sample of the upload: the date/time cell of its first row, as text. */
export interface DatedSample {
  subject: string;
  sample: string;
  date: string;
}

/** What the sample dates say about the sampling (issue 31: "sampling" in the draft dataset). */
export interface SamplingSummary {
  /** subject × samples with a date that could be read */
  dated_samples: number;
  /** date cells that are not an ISO date (YYYY-MM-DD, optionally with HH:MM): not guessed */
  unread: number;
  /** median of the intervals between a subject's consecutive samples, in days */
  interval_days: number | null;
  /** the longest span from a subject's first to last sample, in days */
  span_days: number | null;
  /** earliest and latest clock time of a sample (HH:MM); null when the dates carry no times */
  earliest_time: string | null;
  latest_time: string | null;
}

// ISO 8601 as spreadsheets and R write it; day-first or month-first dates are ambiguous and not read.
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/;
const DAY_MS = 86_400_000;

/** The wall-clock time of an ISO date in ms (the zone, if any, is ignored: sampling is local time). */
function parseIsoDate(text: string): { ms: number; time: string | null } | null {
  const m = ISO.exec(text.trim());
  if (!m) return null;
  const part = (i: number) => (m[i] === undefined ? 0 : Number(m[i]));
  const [y, mo, d, h, mi, s] = [part(1), part(2), part(3), part(4), part(5), part(6)];
  const ms = Date.UTC(y, mo - 1, d, h, mi, s);
  const back = new Date(ms);
  if (back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d || h > 23 || mi > 59) return null;
  return { ms, time: m[4] === undefined ? null : `${m[4]}:${m[5]}` };
}

function median(xs: number[]): number | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** Each subject's intervals between consecutive distinct times, and its first-to-last span, in days. */
function spacing(bySubject: Map<string, Map<string, number>>, at: (ms: number) => number) {
  const intervals: number[] = [];
  const spans: number[] = [];
  for (const subject of bySubject.values()) {
    const ms = [...subject.values()].map(at).sort((a, b) => a - b);
    for (let i = 1; i < ms.length; i++)
      if (ms[i]! > ms[i - 1]!) intervals.push((ms[i]! - ms[i - 1]!) / DAY_MS);
    if (ms.length >= 2 && ms[ms.length - 1]! > ms[0]!) spans.push((ms[ms.length - 1]! - ms[0]!) / DAY_MS);
  }
  return { intervals, spans };
}

/**
 * The sampling a study's dates show: the median interval between a subject's consecutive samples, the
 * longest first-to-last span of a subject, and the clock times. Each subject × sample counts once
 * (its first dated row); date-only cells ("2026-01-05", or midnight from a spreadsheet date) give no times.
 */
export function describeSampling(samples: readonly DatedSample[]): SamplingSummary | null {
  const bySubject = new Map<string, Map<string, number>>();
  const times: string[] = [];
  let unread = 0;
  let dated = 0;
  for (const s of samples) {
    const at = parseIsoDate(s.date);
    if (!at) {
      unread++;
      continue;
    }
    let subject = bySubject.get(s.subject);
    if (!subject) bySubject.set(s.subject, (subject = new Map<string, number>()));
    if (subject.has(s.sample)) continue;
    subject.set(s.sample, at.ms);
    dated++;
    if (at.time !== null) times.push(at.time);
  }
  if (dated === 0 && unread === 0) return null;
  // Samples on different days are spaced in calendar days (a weekly 07:30 then 08:10 sample is 7 days
  // apart); only samples within one day are spaced by their clock times.
  const byDay = spacing(bySubject, (ms) => Math.floor(ms / DAY_MS) * DAY_MS);
  const { intervals, spans } = byDay.intervals.length > 0 ? byDay : spacing(bySubject, (ms) => ms);
  // Midnight everywhere is a date without a time (a spreadsheet date cell), not a sampling time.
  const clock = times.every((t) => t === '00:00') ? [] : times.sort();
  return {
    dated_samples: dated,
    unread,
    interval_days: median(intervals),
    span_days: spans.length ? Math.max(...spans) : null,
    earliest_time: clock[0] ?? null,
    latest_time: clock[clock.length - 1] ?? null,
  };
}

/** The create-payload sampling fields (spec: samples_per per interval_units, study_duration in units). */
export interface DatasetSampling {
  samples_per: number | null;
  interval_units: TimeUnit | null;
  study_duration: number | null;
  study_duration_units: TimeUnit | null;
  sampling_times_start_time: string | null;
  sampling_times_end_time: string | null;
  /** 1 for the dataset form's "Weekly Samplings": at most 2 samples a week, down to 1 a month (3.5 to 31 days apart) */
  weekly_samplings: 0 | 1;
}

const round = (x: number, digits = 3) => Number(x.toFixed(digits));
const MONTH_DAYS = 365.25 / 12;

/** Days in the unit that reads most naturally for an interval of `days` (a near-whole number of weeks → Week). */
function unitFor(days: number): { unit: TimeUnit; days: number } {
  if (days < 1) return { unit: 'Hour', days: 1 / 24 };
  if (days >= 28 && Math.abs(days / MONTH_DAYS - Math.round(days / MONTH_DAYS)) <= 3 / MONTH_DAYS)
    return { unit: 'Month', days: MONTH_DAYS };
  if (days >= 6 && Math.abs(days - 7 * Math.round(days / 7)) <= 1) return { unit: 'Week', days: 7 };
  return { unit: 'Day', days: 1 };
}

/**
 * A sampling summary in the dataset's own terms, the way the seed reads "1 per 2 weeks" (0.5 per
 * Week): samples_per = samples per interval unit; the study duration is the longest subject's first-
 * to-last span, in the interval's unit (in years past two years).
 */
export function datasetSamplingOf(s: SamplingSummary | null): DatasetSampling {
  const none: DatasetSampling = {
    samples_per: null,
    interval_units: null,
    study_duration: null,
    study_duration_units: null,
    sampling_times_start_time: s?.earliest_time ?? null,
    sampling_times_end_time: s?.latest_time ?? null,
    weekly_samplings: 0,
  };
  if (!s || s.interval_days === null || s.interval_days <= 0) return none;
  const interval = unitFor(s.interval_days);
  const out: DatasetSampling = {
    ...none,
    samples_per: round(interval.days / s.interval_days),
    interval_units: interval.unit,
    weekly_samplings: s.interval_days >= 3.5 && s.interval_days <= 31 ? 1 : 0,
  };
  if (s.span_days !== null) {
    const span = s.span_days >= 730 ? { unit: 'Year' as const, days: 365.25 } : unitFor(s.interval_days);
    const spanUnit = span.unit === 'Hour' && s.span_days >= 2 ? { unit: 'Day' as const, days: 1 } : span;
    out.study_duration = round(s.span_days / spanUnit.days, 1);
    out.study_duration_units = spanUnit.unit;
  }
  return out;
}
