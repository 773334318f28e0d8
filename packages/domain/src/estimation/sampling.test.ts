import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../prng.js';
import { datasetSamplingOf, describeSampling, type DatedSample } from './sampling.js';

/** Subjects sampled every `days` from a start date, `n` samples each, at the given clock times. */
function study(subjects: number, n: number, days: number, times: string[] = []): DatedSample[] {
  const out: DatedSample[] = [];
  for (let s = 0; s < subjects; s++) {
    for (let k = 0; k < n; k++) {
      const d = new Date(Date.UTC(2026, 0, 5 + s) + k * days * 86_400_000).toISOString().slice(0, 10);
      const t = times[(s + k) % Math.max(1, times.length)];
      out.push({ subject: `S${s}`, sample: String(k + 1), date: t ? `${d} ${t}` : d });
    }
  }
  return out;
}

describe('what the sample dates say about the sampling', () => {
  it('weekly samples: 7-day interval, the longest span, no times from date-only cells', () => {
    const s = describeSampling(study(4, 10, 7))!;
    expect(s).toMatchObject({ dated_samples: 40, unread: 0, interval_days: 7, span_days: 63 });
    expect(s.earliest_time).toBeNull();
    expect(datasetSamplingOf(s)).toEqual({
      samples_per: 1,
      interval_units: 'Week',
      study_duration: 9,
      study_duration_units: 'Week',
      sampling_times_start_time: null,
      sampling_times_end_time: null,
      weekly_samplings: 1,
    });
  });

  it('one sample every two weeks is 0.5 per Week (as the seed reads "1 per 2 weeks")', () => {
    const f = datasetSamplingOf(describeSampling(study(3, 5, 14)));
    expect(f).toMatchObject({
      samples_per: 0.5,
      interval_units: 'Week',
      study_duration: 8,
      weekly_samplings: 1,
    });
  });

  it('daily, monthly and hourly designs use the natural unit; clock times give the sampling window', () => {
    // Daily is more than 2 a week: not "Weekly Samplings" as the dataset form reads it; monthly is.
    expect(datasetSamplingOf(describeSampling(study(2, 5, 1)))).toMatchObject({
      samples_per: 1,
      interval_units: 'Day',
      study_duration: 4,
      study_duration_units: 'Day',
      weekly_samplings: 0,
    });
    expect(datasetSamplingOf(describeSampling(study(2, 6, 30)))).toMatchObject({
      interval_units: 'Month',
      study_duration_units: 'Month',
      weekly_samplings: 1,
    });
    expect(datasetSamplingOf(describeSampling(study(2, 4, 61)))).toMatchObject({
      interval_units: 'Month',
      weekly_samplings: 0,
    });
    const hourly = describeSampling(
      ['07:00', '08:00', '09:00', '10:00'].map((t, k) => ({
        subject: 'A',
        sample: String(k + 1),
        date: `2026-01-05T${t}`,
      })),
    )!;
    expect(hourly.interval_days).toBeCloseTo(1 / 24, 10);
    expect(datasetSamplingOf(hourly)).toMatchObject({
      samples_per: 1,
      interval_units: 'Hour',
      study_duration: 3,
    });
    const timed = describeSampling(study(3, 4, 7, ['07:30', '08:15', '09:05']))!;
    expect([timed.earliest_time, timed.latest_time]).toEqual(['07:30', '09:05']);
    // Weekly samples at different morning times are 7 calendar days apart, not 7.03 days.
    expect([timed.interval_days, timed.span_days]).toEqual([7, 21]);
    expect(datasetSamplingOf(timed)).toMatchObject({
      sampling_times_start_time: '07:30',
      sampling_times_end_time: '09:05',
    });
  });

  it('a spreadsheet date cell (midnight, ISO with Z) is a date without a time', () => {
    const s = describeSampling([
      { subject: 'A', sample: '1', date: '2026-01-05T00:00:00.000Z' },
      { subject: 'A', sample: '2', date: '2026-01-12T00:00:00.000Z' },
    ])!;
    expect(s).toMatchObject({ interval_days: 7, earliest_time: null, latest_time: null });
  });

  it('ambiguous or impossible dates are counted as unread, never guessed; the replicate rows of a sample count once', () => {
    const s = describeSampling([
      { subject: 'A', sample: '1', date: '05/01/2026' },
      { subject: 'A', sample: '2', date: '2026-02-30' },
      { subject: 'A', sample: '3', date: '2026-01-05' },
      { subject: 'A', sample: '3', date: '2026-01-06' },
    ])!;
    expect(s).toMatchObject({ dated_samples: 1, unread: 2, interval_days: null, span_days: null });
    expect(datasetSamplingOf(s)).toMatchObject({
      samples_per: null,
      study_duration: null,
      weekly_samplings: 0,
    });
    expect(describeSampling([])).toBeNull();
  });

  it('unequal intervals: the median interval; the longest subject sets the duration', () => {
    const rows: DatedSample[] = ['2026-01-01', '2026-01-08', '2026-01-15', '2026-01-29'].map((date, k) => ({
      subject: 'A',
      sample: String(k + 1),
      date,
    }));
    rows.push(
      { subject: 'B', sample: '1', date: '2026-03-01' },
      { subject: 'B', sample: '2', date: '2026-03-08' },
    );
    expect(describeSampling(rows)).toMatchObject({ interval_days: 7, span_days: 28 });
  });
});

describe('sampling properties', () => {
  it('the order of the rows and moving every date by whole days change nothing', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 6 }),
        fc.integer({ min: 2, max: 8 }),
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: -400, max: 400 }),
        fc.integer(),
        (subjects, n, days, shift, seed) => {
          const rows = study(subjects, n, days, ['07:15', '08:40']);
          const moved = rows.map((r) => {
            const [date, time] = r.date.split(' ');
            const d = new Date(Date.parse(`${date}T00:00:00Z`) + shift * 86_400_000)
              .toISOString()
              .slice(0, 10);
            return { ...r, date: `${d} ${time}` };
          });
          // A seeded Fisher–Yates shuffle of the moved rows.
          const shuffled = [...moved];
          const rnd = mulberry32(seed);
          for (let k = shuffled.length - 1; k > 0; k--) {
            const m = Math.floor(rnd() * (k + 1));
            [shuffled[k], shuffled[m]] = [shuffled[m]!, shuffled[k]!];
          }
          expect(describeSampling(shuffled)).toEqual(describeSampling(rows));
        },
      ),
      { numRuns: 100 },
    );
  });
});
