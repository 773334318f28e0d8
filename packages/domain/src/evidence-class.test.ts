import { describe, expect, it } from 'vitest';
import {
  DEFAULT_EVIDENCE_CLASS,
  ESTIMATE_EVIDENCE_LABELS,
  estimateEvidenceOf,
  EVIDENCE_CLASS_LABELS,
  isEvidenceClass,
} from './evidence-class.js';
import { datasetFacets, facetCounts, matchesFacets, type FacetSource } from './facets.js';

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

describe('evidence classes (issue 47.4, decision 099)', () => {
  it('a dataset that does not say is a direct ANOVA study, in the evidence facet too', () => {
    expect(DEFAULT_EVIDENCE_CLASS).toBe('direct-anova');
    expect(datasetFacets(base).evidence).toEqual([
      { value: 'direct-anova', label: 'direct study (ANOVA, confidence interval)' },
    ]);
  });

  it('counts each class with zeros and selects by it', () => {
    const facets = [
      datasetFacets(base),
      datasetFacets({ ...base, evidenceClass: 'direct-bayesian' }),
      datasetFacets({ ...base, evidenceClass: 'indirect' }),
      datasetFacets({ ...base, evidenceClass: 'direct-bayesian' }),
    ];
    const evidence = facetCounts(facets).find((c) => c.facet === 'evidence')!;
    expect(evidence.values.map((v) => [v.value, v.datasets])).toEqual([
      ['direct-anova', 1],
      ['direct-bayesian', 2],
      ['indirect', 1],
    ]);
    expect(evidence.unknown).toBe(0);
    expect(facets.map((f) => matchesFacets(f, { evidence: ['direct-bayesian', 'indirect'] }))).toEqual([
      false,
      true,
      true,
      true,
    ]);
  });

  it('an estimate is a range when its limits are one, else the class its studies share, mixed when they differ', () => {
    expect(estimateEvidenceOf('range', ['direct-anova'])).toEqual({
      class: 'range',
      label: ESTIMATE_EVIDENCE_LABELS.range,
    });
    expect(estimateEvidenceOf('95 % CI', ['direct-anova', 'direct-anova'])).toEqual({
      class: 'direct-anova',
      label: EVIDENCE_CLASS_LABELS['direct-anova'],
    });
    expect(estimateEvidenceOf('95 % CI', ['direct-bayesian'])).toMatchObject({ class: 'direct-bayesian' });
    expect(estimateEvidenceOf('95 % CI', ['direct-anova', 'indirect'])).toMatchObject({ class: 'mixed' });
    expect(estimateEvidenceOf(null, [])).toMatchObject({ class: 'direct-anova' });
  });

  it('routine data has the words of a laboratory’s local estimates', () => {
    expect(EVIDENCE_CLASS_LABELS.indirect).toBe('routine data (indirect)');
    expect(isEvidenceClass('indirect')).toBe(true);
    expect(isEvidenceClass('bayesian')).toBe(false);
  });
});
