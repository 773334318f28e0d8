import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ageBandOf,
  datasetFacets,
  facetCounts,
  describeFacetSelection,
  facetQueryString,
  facetSelectionKey,
  filterByFacets,
  intervalBandOf,
  invalidFacetChoice,
  matchesFacets,
  sexOf,
  type FacetSource,
} from './facets.js';
import { metaAnalyse, type MetaInputRow } from './meta-analysis.js';

const base: FacetSource = {
  numberOfMales: null,
  numberOfFemales: null,
  sexForMetaAnalysis: null,
  ageMin: null,
  ageMax: null,
  ageMean: null,
  stateOfWellBeing: null,
  diseases: [],
  ethnicity: null,
  samplesPer: null,
  intervalUnits: null,
  method: null,
  matrix: null,
};

describe('sex from the sex counts', () => {
  it.each([
    [12, 0, null, 'males'],
    [0, 9, null, 'females'],
    [5, 7, null, 'mixed'],
    [0, 0, 'Mixed', 'mixed'],
    [null, null, 'Females', 'females'],
    [8, null, 'Mixed', 'mixed'],
    [null, null, null, null],
  ] as const)('%s males, %s females, declared %s → %s', (m, f, declared, want) => {
    expect(sexOf({ numberOfMales: m, numberOfFemales: f, sexForMetaAnalysis: declared })).toBe(want);
  });
});

describe('age band', () => {
  it.each([
    [5, 15, null, 'children'],
    [18, 64, null, 'adults'],
    [65, 90, null, 'elderly'],
    [20, 80, 45, 'adults'],
    [20, 80, 70, 'elderly'],
    [10, 40, null, 'mixed'],
    [17, 18, null, 'mixed'],
    [null, null, 30, 'adults'],
    [null, null, 70.5, 'elderly'],
    [66, null, null, 'elderly'],
    [null, 12, null, 'children'],
    [30, null, null, null],
    [null, null, null, null],
  ] as const)('range %s–%s, mean %s → %s', (ageMin, ageMax, ageMean, want) => {
    expect(ageBandOf({ ageMin, ageMax, ageMean })).toBe(want);
  });
});

describe('sampling interval', () => {
  it.each([
    [1, 'Day', 'days'],
    [3, 'Week', 'days'],
    [2, 'Week', 'weeks'],
    [1, 'Week', 'weeks'],
    [2, 'Month', 'weeks'],
    [1, 'Month', 'months'],
    [6, 'Year', 'months'],
    [4, 'Hour', 'days'],
    [1, 'Other', null],
    [null, 'Week', null],
    [0, 'Week', null],
  ] as const)('%s per %s → %s', (samplesPer, intervalUnits, want) => {
    expect(intervalBandOf({ samplesPer, intervalUnits })).toBe(want);
  });
});

describe('datasetFacets', () => {
  it('slugs lookup labels and merges labels differing only in case', () => {
    const a = datasetFacets({
      ...base,
      matrix: 'Whole blood',
      diseases: ['Chronic kidney disease', 'Obesity'],
    });
    const b = datasetFacets({ ...base, matrix: 'Whole Blood' });
    expect(a.matrix[0]!.value).toBe('whole-blood');
    expect(b.matrix[0]!.value).toBe('whole-blood');
    expect(a.disease.map((d) => d.value)).toEqual(['chronic-kidney-disease', 'obesity']);
    expect(a.sex).toEqual([]);
  });
});

describe('counts and filtering', () => {
  const sources: FacetSource[] = [
    { ...base, numberOfMales: 10, numberOfFemales: 0, stateOfWellBeing: 'Athletes', matrix: 'Serum' },
    { ...base, numberOfMales: 4, numberOfFemales: 6, stateOfWellBeing: 'Healthy', matrix: 'Serum' },
    { ...base, numberOfMales: 0, numberOfFemales: 8, stateOfWellBeing: 'Healthy', matrix: 'Plasma' },
    { ...base, stateOfWellBeing: 'Non-healthy', diseases: ['Obesity', 'Heart disease'], matrix: 'Plasma' },
  ];
  const facets = sources.map(datasetFacets);

  it('counts each value, the fixed vocabularies with zeros, and the unknowns', () => {
    const counts = facetCounts(facets);
    const sex = counts.find((c) => c.facet === 'sex')!;
    expect(sex.values.map((v) => [v.value, v.datasets])).toEqual([
      ['males', 1],
      ['females', 1],
      ['mixed', 1],
    ]);
    expect(sex.unknown).toBe(1);
    const state = counts.find((c) => c.facet === 'state')!;
    expect(state.values.map((v) => [v.value, v.datasets])).toEqual([
      ['athletes', 1],
      ['healthy', 2],
      ['non-healthy', 1],
    ]);
    const disease = counts.find((c) => c.facet === 'disease')!;
    expect(disease.values.map((v) => v.value)).toEqual(['heart-disease', 'obesity']);
    expect(disease.unknown).toBe(3);
  });

  it('is OR within a facet and AND across facets; an unknown value is never selected', () => {
    const pick = (sel: Parameters<typeof matchesFacets>[1]) =>
      facets.map((f, i) => (matchesFacets(f, sel) ? i : -1)).filter((i) => i >= 0);
    expect(pick({ state: ['healthy'] })).toEqual([1, 2]);
    expect(pick({ state: ['healthy', 'athletes'] })).toEqual([0, 1, 2]);
    expect(pick({ state: ['healthy'], matrix: ['serum'] })).toEqual([1]);
    expect(pick({ sex: ['males', 'females', 'mixed'] })).toEqual([0, 1, 2]);
    expect(pick({ disease: ['obesity'] })).toEqual([3]);
    expect(pick({})).toEqual([0, 1, 2, 3]);
  });

  it('keys a selection canonically, whatever the order it was given in', () => {
    expect(facetSelectionKey({ state: ['healthy', 'athletes'], sex: ['males'] })).toBe(
      facetSelectionKey({ sex: ['males'], state: ['athletes', 'healthy', 'healthy'], age: [] }),
    );
    expect(facetSelectionKey({ state: ['healthy', 'athletes'], sex: ['males'] })).toBe(
      'sex=males&state=athletes,healthy',
    );
  });

  it('names the facet and the allowed values of an unknown choice', () => {
    expect(invalidFacetChoice({ sex: ['men'] }, { sex: ['males', 'females', 'mixed'] })).toEqual({
      facet: 'sex',
      value: 'men',
      allowed: ['males', 'females', 'mixed'],
    });
    expect(invalidFacetChoice({ colour: ['red'] }, {})?.value).toBeNull();
    expect(invalidFacetChoice({ sex: ['males'] }, { sex: ['males'] })).toBeNull();
  });
});

describe('property: facets that select every dataset give the global value byte for byte', () => {
  const grade = fc.constantFrom('A' as const, 'B' as const, 'C' as const, 'D' as const);
  const dataset = fc.record({
    ref: fc.integer({ min: 1, max: 15 }),
    include: fc.boolean(),
    score: grade,
    cv: fc.double({ min: 1, max: 40, noNaN: true }),
    half: fc.double({ min: 0.1, max: 10, noNaN: true }),
    males: fc.integer({ min: 0, max: 30 }),
    females: fc.integer({ min: 0, max: 30 }),
    ageMean: fc.double({ min: 1, max: 95, noNaN: true }),
    state: fc.constantFrom('Healthy', 'Athletes', 'Pregnant'),
    matrix: fc.constantFrom('Serum', 'Plasma'),
  });

  it('holds for any datasets and any facet whose values all are chosen', () => {
    fc.assert(
      fc.property(
        fc.array(dataset, { minLength: 1, maxLength: 30 }),
        fc.constantFrom('age', 'state', 'matrix', 'sex'),
        (list, facet) => {
          const items = list.map((d) => ({
            row: {
              id: String(d.ref),
              include: d.include,
              score: d.score,
              cv: d.cv,
              ciLower: d.cv - d.half,
              ciUpper: d.cv + d.half,
            } satisfies MetaInputRow,
            facets: datasetFacets({
              ...base,
              numberOfMales: d.males,
              numberOfFemales: d.females,
              sexForMetaAnalysis: 'Mixed',
              ageMean: d.ageMean,
              stateOfWellBeing: d.state,
              matrix: d.matrix,
            }),
          }));
          const every = facetCounts(items.map((i) => i.facets))
            .find((c) => c.facet === facet)!
            .values.map((v) => v.value);
          const chosen = filterByFacets(items, (i) => i.facets, { [facet]: every });
          expect(chosen).toHaveLength(items.length);
          const global = metaAnalyse(items.map((i) => i.row));
          const faceted = metaAnalyse(chosen.map((i) => i.row));
          expect(JSON.stringify(faceted)).toBe(JSON.stringify(global));
        },
      ),
      { seed: 47, numRuns: 200 },
    );
  });
});

describe('a selection in a URL and in words (decision 097)', () => {
  it('is the query the API and the permalink take: canonical facet order, values sorted and deduplicated', () => {
    expect(facetQueryString({ state: ['healthy', 'athletes'], sex: ['males'], age: [] })).toBe(
      'facet.sex=males&facet.state=athletes,healthy',
    );
    expect(facetQueryString({ matrix: ['whole-blood', 'whole-blood'] })).toBe('facet.matrix=whole-blood');
    expect(facetQueryString({})).toBe('');
  });
  it("is said with the facets' labels and the values' labels where known", () => {
    const labels: Record<string, string> = { males: 'Males', weeks: 'Weeks (twice a week to every 4 weeks)' };
    expect(
      describeFacetSelection({ interval: ['weeks'], sex: ['males', 'females'] }, (_f, v) => labels[v]),
    ).toBe('Sex: females, Males; Sampling interval: Weeks (twice a week to every 4 weeks)');
    expect(describeFacetSelection({})).toBe('');
  });
});
