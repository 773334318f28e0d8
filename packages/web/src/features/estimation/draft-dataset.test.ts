import { DatasetInputSchema, type EstimationResponse } from '@bvdb/contract';
import { estimateBiologicalVariation, QUALITY_ITEMS } from '@bvdb/domain';
import { describe, expect, it } from 'vitest';
import fixtureJson from '../../../../domain/test-data/estimation/fixtures.json';
import { draftDataset, draftGrades } from './draft-dataset';

interface Case {
  name: string;
  rows: { subject: string; sample: string; replicate: number; value: number | null }[];
}
const fixtures = fixtureJson as unknown as { cases: Case[] };

/** The endpoint's answer shape from the engine (input report and plot data as the presenter makes them, trimmed). */
function response(name: string, options = {}): EstimationResponse {
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
      notes: [],
    },
    subjects: [],
  };
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
    const payload: Record<string, unknown> = {
      analyte_id: 1,
      reference_id: 1,
      matrix_id: 1,
      unique_identifier: 'x',
    };
    for (const item of QUALITY_ITEMS) payload[item.key] = 'A';
    for (const [k, v] of Object.entries(values)) {
      payload[k] = QUALITY_ITEMS.some((i) => i.key === k) || k === 'scoring_comment' ? v : Number(v);
    }
    const parsed = DatasetInputSchema.safeParse(payload);
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
  });
});
