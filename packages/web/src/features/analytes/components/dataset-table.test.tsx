import type { Dataset, MetaRecord } from '@bvdb/contract';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { DatasetTable } from './dataset-table';

/** A healthy, flagged, grade-A dataset with a CVI and a CVG and their calculated CIs. */
function dataset(id: number, overrides: Partial<Dataset> = {}): Dataset {
  return {
    id,
    unique_identifier: `UID-${id}`,
    reference_id: 10 + id,
    reference_author: 'Ricós C, Perich C',
    reference_year_of_publication: 2009,
    estimates_of_cvi: 5.6,
    estimates_of_cvg: 7.5,
    reported_cvi_lower_confidence_interval: null,
    reported_cvi_upper_confidence_interval: null,
    reported_cvg_lower_confidence_interval: null,
    reported_cvg_upper_confidence_interval: null,
    calculated_within_bv_lower_ci: 4.8,
    calculated_within_bv_upper_ci: 6.7,
    calculated_between_bv_lower_ci: 5.9,
    calculated_between_bv_upper_ci: 10.2,
    sex_for_meta_analysis: 'Both',
    age_mean: 40,
    age_min: null,
    age_max: null,
    state_of_well_being: 'Healthy',
    matrix: { id: 1, matrix_expansion: 'Plasma' },
    sampling_interval: '1 per week',
    total_score: 'A',
    healthy: 1,
    include_in_meta_analysis: 1,
    ...overrides,
  } as Dataset;
}

function meta(varType: ':cvi' | ':cvg', ids: number[]): MetaRecord {
  return {
    var_type: varType,
    datasets: ids.map((id) => ({ bv_specification_id: id })),
  } as MetaRecord;
}

const show = (datasets: Dataset[], metas: MetaRecord[]) =>
  render(
    <MemoryRouter>
      <DatasetTable datasets={datasets} metas={metas} />
    </MemoryRouter>,
  );

describe('the measurand page says which datasets the meta-analysis actually used', () => {
  it('green for a dataset in the estimates, with the estimates it went into', () => {
    show([dataset(1)], [meta(':cvi', [1]), meta(':cvg', [1])]);
    expect(screen.getByTestId('meta-use-1').textContent).toBe('Used for CVI and CVG');
    expect(screen.getByTestId('meta-use-1').closest('tr')!.className).toBe('table-success');
  });

  it('a flagged dataset without a confidence interval is yellow and says why (glucose plasma)', () => {
    const noCi = dataset(2, {
      calculated_within_bv_lower_ci: null,
      calculated_within_bv_upper_ci: null,
      calculated_between_bv_lower_ci: null,
      calculated_between_bv_upper_ci: null,
    });
    show([noCi], [meta(':cvi', [1]), meta(':cvg', [1])]);
    expect(screen.getByTestId('meta-use-2').textContent).toBe(
      'Flagged for inclusion, left out (CVI and CVG): no confidence interval',
    );
    expect(screen.getByTestId('meta-use-2').closest('tr')!.className).toBe('table-warning');
  });

  it('used for CVI only: the CVG is left out with its reason (a reported CI is taken when given)', () => {
    const cvgWithoutCi = dataset(3, {
      reported_cvi_lower_confidence_interval: 5,
      reported_cvi_upper_confidence_interval: 6,
      calculated_between_bv_lower_ci: null,
      calculated_between_bv_upper_ci: null,
    });
    show([cvgWithoutCi], [meta(':cvi', [3])]);
    expect(screen.getByTestId('meta-use-3').textContent).toBe(
      'Used for CVI; CVG left out: no confidence interval',
    );
  });

  it('grade D and a non-healthy population are named; a dataset the curator did not flag says so', () => {
    show([dataset(4, { total_score: 'D', healthy: 0 }), dataset(5, { include_in_meta_analysis: 0 })], []);
    expect(screen.getByTestId('meta-use-4').textContent).toBe(
      'Flagged for inclusion, left out (CVI and CVG): not a healthy population, grade D',
    );
    expect(screen.getByTestId('meta-use-5').textContent).toBe('Not included by the curator');
  });

  it('a dataset that meets every rule but is not in an estimate says so, in yellow', () => {
    show([dataset(6, { estimates_of_cvg: null })], []);
    expect(screen.getByTestId('meta-use-6').textContent).toBe(
      'Flagged for inclusion, left out: CVI meets every rule but is not in the current estimate; CVG no estimate',
    );
    expect(screen.getByText('Included In Meta Analysis')).toBeTruthy();
  });

  it.each([null, '', '  ', 'Unknown Author'])(
    'a reference without author (%j) reads "Unknown Author (2021)", never a bare "(2021)"',
    (author) => {
      show(
        [dataset(9, { reference_author: author, reference_year_of_publication: 2021 } as Partial<Dataset>)],
        [],
      );
      expect(screen.getByRole('link', { name: 'Unknown Author (2021)' })).toBeTruthy();
      expect(screen.queryByRole('link', { name: '(2021)' })).toBeNull();
    },
  );
});
