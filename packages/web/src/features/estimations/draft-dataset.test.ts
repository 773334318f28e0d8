import { DatasetInputSchema, type EstimationResponse } from '@bvdb/contract';
import { estimateBiologicalVariation, QUALITY_ITEMS } from '@bvdb/domain';
import { describe, expect, it } from 'vitest';
import fixtureJson from '../../../../domain/test-data/estimation/fixtures.json';
import { draftValuesOf } from '../datasets/dataset-form-values';
import { draftDataset, draftGrades, UNASSESSED_BY_ESTIMATOR } from './draft-dataset';

interface Case {
  name: string;
  rows: { subject: string; sample: string; replicate: number; value: number | null }[];
}
const fixtures = fixtureJson as unknown as { cases: Case[] };

/** The endpoint's answer shape from the engine (input report and plot data as the presenter makes them, trimmed). */
function response(
  name: string,
  options = {},
  extra: Partial<Pick<EstimationResponse['input'], 'sampling'>> &
    Pick<Partial<EstimationResponse>, 'subjects'> = {},
): EstimationResponse {
  const rows = fixtures.cases.find((c) => c.name === name)!.rows;
  const result = estimateBiologicalVariation(rows, options);
  const json = JSON.parse(
    JSON.stringify(result, (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? null : v)),
  ) as EstimationResponse;
  return {
    ...json,
    input: {
      format: 'csv',
      columns: {},
      rows: rows.length,
      missing: { count: 0, rows: [] },
      design: {
        balanced: false,
        samples_per_subject: { min: 2, max: 4 },
        replicates_per_sample: { min: 1, max: 2 },
        samples_with_one_replicate: 3,
        subjects: [],
      },
      sampling: extra.sampling ?? null,
      notes: [],
    },
    subjects: extra.subjects ?? [],
  };
}

const WEEKLY_MORNINGS = {
  dated_samples: 93,
  unread: 0,
  interval_days: 7,
  span_days: 49,
  earliest_time: '07:30',
  latest_time: '09:15',
};
const subjectsOf = (...groups: (string | null)[]) =>
  groups.map((group, i) => ({ subject: `S${i}`, group, points: [] }));

/** The draft's values as the create form would send them (the required ids chosen, grades and text as strings). */
function payloadOf(values: Record<string, string | undefined>): Record<string, unknown> {
  const payload: Record<string, unknown> = {
    analyte_id: 1,
    reference_id: 1,
    matrix_id: 1,
    unique_identifier: 'x',
  };
  for (const item of QUALITY_ITEMS) payload[item.key] = 'A';
  const textual = new Set([
    'scoring_comment',
    'comment',
    'interval_units',
    'study_duration_units',
    'sex_for_meta_analysis',
    'sampling_times_start_time',
    'sampling_times_end_time',
  ]);
  for (const [k, v] of Object.entries(values)) {
    payload[k] = QUALITY_ITEMS.some((i) => i.key === k) || textual.has(k) ? v : Number(v);
  }
  // What the draft leaves unassessed, chosen by the curator as the form asks (issue 42.4).
  for (const k of UNASSESSED_BY_ESTIMATOR) if (values[k] === '') payload[k] = k.endsWith('_id') ? 1 : 'A';
  if (values.sex_for_meta_analysis === '') payload.sex_for_meta_analysis = 'Mixed';
  return payload;
}

describe('draft BIVAC answers from an estimation', () => {
  it.each(['balanced', 'unbalanced', 'outliers'])(
    '%s: QI 6–13, each within its allowed grades, with evidence',
    (name) => {
      const grades = draftGrades(response(name));
      expect(grades.map((g) => QUALITY_ITEMS.find((i) => i.key === g.key)!.number)).toEqual([
        6, 7, 8, 9, 10, 11, 12, 13,
      ]);
      for (const g of grades) {
        const item = QUALITY_ITEMS.find((i) => i.key === g.key)!;
        expect(item.allowedGrades as readonly string[]).toContain(g.grade);
        expect(g.evidence.length).toBeGreaterThan(10);
      }
    },
  );

  it('grades follow the report: all outlier steps on → QI8 A; all off → C; one replicate per some samples → QI6 B', () => {
    const on = draftGrades(response('outliers'));
    expect(on.find((g) => g.key === 'outlier_analysis')!.grade).toBe('A');
    expect(on.find((g) => g.key === 'replicate_analysis')!.grade).toBe('B');
    const off = draftGrades(
      response('outliers', { replicate_outlier: 'none', sample_outlier: false, reed: false }),
    );
    expect(off.find((g) => g.key === 'outlier_analysis')!.grade).toBe('C');
  });

  it('fills the create payload fields with the estimates; the values pass the contract once the required ids are chosen', () => {
    const e = response('outliers');
    const { values } = draftDataset(e);
    const set = e.derived.source === 'cv_anova' ? e.estimates.cv_anova : e.estimates.classic;
    expect(Number(values.estimates_of_cvi)).toBeCloseTo(set.cvi!, 2);
    expect(Number(values.estimates_of_cvg)).toBeCloseTo(e.estimates.classic.cvg!, 2);
    expect(values.number_of_subjects_included_in_bv_estimation).toBe(String(e.n_subjects));
    expect(values.scoring_comment).toMatch(/QI8 Outlier \(A\)/);
    const parsed = DatasetInputSchema.safeParse(payloadOf(values));
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
  });

  it('leaves QI 1–5, QI 14 and the population unassessed: empty, never the defaults A / Healthy / Caucasian / Males (issue 42.4)', () => {
    const { values } = draftDataset(response('outliers', {}));
    for (const item of QUALITY_ITEMS.filter((i) => i.number <= 5 || i.number === 14))
      expect(values[item.key]).toBe('');
    expect(values.state_of_well_being_id).toBe('');
    expect(values.ethnicity_id).toBe('');
    // Without a sex group column the sex is not assessed either.
    if (!values.number_of_males) expect(values.sex_for_meta_analysis).toBe('');
    for (const item of QUALITY_ITEMS.filter((i) => i.number >= 6 && i.number <= 13))
      expect(values[item.key]).toMatch(/^(A|B|C|D|NA)$/);
  });

  it('fills the sampling from the dates: samples per unit, duration, times and the weekly flag', () => {
    const { values } = draftDataset(response('unbalanced', {}, { sampling: WEEKLY_MORNINGS }));
    expect(values).toMatchObject({
      samples_per: '1',
      interval_units: 'Week',
      weekly_samplings: '1',
      study_duration: '7',
      study_duration_units: 'Week',
      sampling_times_start_time: '07:30',
      sampling_times_end_time: '09:15',
    });
    expect(values.comment).toMatch(/CVG from the nested random-effects ANOVA/);
    const parsed = DatasetInputSchema.safeParse(payloadOf(values));
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
    expect(parsed.data).toMatchObject({ samples_per: 1, interval_units: 'Week', weekly_samplings: 1 });
    // The create form takes the flag as a ticked box, and the rest as typed text.
    expect(draftValuesOf(values)).toMatchObject({
      weekly_samplings: true,
      samples_per: '1',
      interval_units: 'Week',
    });
  });

  it('without a date column the sampling fields are left to the form (its defaults), never guessed', () => {
    const { values } = draftDataset(response('unbalanced'));
    for (const k of [
      'samples_per',
      'study_duration',
      'interval_units',
      'sampling_times_start_time',
      'weekly_samplings',
    ])
      expect(values).not.toHaveProperty(k);
  });

  it('a sex group column gives the numbers of males and females and the sex for meta-analysis; another group does not', () => {
    const mixed = draftDataset(
      response('balanced', {}, { subjects: subjectsOf('F', 'female', 'M', 'Men', 'm') }),
    ).values;
    expect(mixed).toMatchObject({
      number_of_females: '2',
      number_of_males: '3',
      sex_for_meta_analysis: 'Mixed',
    });
    expect(
      draftDataset(response('balanced', {}, { subjects: subjectsOf('F', 'F') })).values.sex_for_meta_analysis,
    ).toBe('Females');
    const other = draftDataset(response('balanced', {}, { subjects: subjectsOf('F', 'smoker') })).values;
    expect(other).not.toHaveProperty('number_of_males');
    expect(other.sex_for_meta_analysis).toBe('');
  });
});
