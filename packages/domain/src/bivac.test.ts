import { describe, expect, it } from 'vitest';
import { overallGrade, QUALITY_ITEMS, qualityItemName, validateBivacGrades } from './bivac.js';
import { estimateCviConfidenceInterval } from './dataset-ci.js';
import { readTestCsv } from './test-data.js';

const allA = Object.fromEntries(QUALITY_ITEMS.map((i) => [i.key, 'A']));

describe('BIVAC', () => {
  it('has the 14 items of the spec with their allowed grades', () => {
    expect(QUALITY_ITEMS).toHaveLength(14);
    expect(QUALITY_ITEMS.find((i) => i.number === 10)!.allowedGrades).toEqual(['A', 'C', 'NA']);
    expect(QUALITY_ITEMS.find((i) => i.number === 2)!.allowedGrades).toEqual(['A', 'B', 'C', 'D', 'NA']);
  });
  it('validates a set of grades and names the item and the allowed grades', () => {
    expect(validateBivacGrades(allA).ok).toBe(true);
    const bad = validateBivacGrades({ ...allA, variance_homogeneity: 'B', scale: undefined });
    expect(bad.ok).toBe(false);
    if (!bad.ok) {
      expect(bad.errors.map((e) => e.message)).toEqual([
        'QI1 Scale: a grade is required (allowed: A, B, NA)',
        'QI10 Variance Homogeneity: grade B is not allowed (allowed: A, C, NA)',
      ]);
    }
  });
  it('overall grade is the worst item, NA ignored', () => {
    expect(overallGrade({ ...allA, samples: 'C', ci: 'NA' })).toBe('C');
    expect(overallGrade({ ...allA, study_population: 'D' })).toBe('D');
    expect(overallGrade(Object.fromEntries(QUALITY_ITEMS.map((i) => [i.key, 'NA'])))).toBeNull();
  });
});

describe('CI of CVI from the study design (Røraas 2012)', () => {
  it('CVA/CVI = 0.25, S = 6, R = 2: about 42% of CVI wide for 10 subjects and 29% for 20', () => {
    const w = (I: number) => {
      const ci = estimateCviConfidenceInterval({
        subjects: I,
        samplesPerSubject: 6,
        replicates: 2,
        cva: 2.5,
        cvi: 10,
      })!;
      return ((ci.upper - ci.lower) / 10) * 100;
    };
    expect(Math.abs(w(10) - 42)).toBeLessThan(2);
    expect(Math.abs(w(20) - 29)).toBeLessThan(2);
  });
  it('brackets the estimate and narrows with more subjects', () => {
    const a = estimateCviConfidenceInterval({
      subjects: 20,
      samplesPerSubject: 10,
      replicates: 1,
      cva: 2,
      cvi: 5,
    })!;
    const b = estimateCviConfidenceInterval({
      subjects: 90,
      samplesPerSubject: 10,
      replicates: 1,
      cva: 2,
      cvi: 5,
    })!;
    expect(a.lower).toBeLessThan(5);
    expect(a.upper).toBeGreaterThan(5);
    expect(b.upper - b.lower).toBeLessThan(a.upper - a.lower);
  });
  it('is close to the published EuBIVAS CIs for their design (91 subjects, 10 samples, duplicates)', () => {
    for (const r of readTestCsv('eubivas_study_estimates.csv').filter((x) => x.cva_pct && x.cvi_lower)) {
      const cvi = Number(r.cvi_pct);
      const ci = estimateCviConfidenceInterval({
        subjects: 90,
        samplesPerSubject: 10,
        replicates: 2,
        cva: Number(r.cva_pct),
        cvi,
      })!;
      const published = Number(r.cvi_upper) - Number(r.cvi_lower);
      // The published CIs come from the actual (unbalanced) data; the design-based one is of the same size.
      expect((ci.upper - ci.lower) / published).toBeGreaterThan(0.4);
      expect((ci.upper - ci.lower) / published).toBeLessThan(2.5);
    }
  });
  it('returns null when the design cannot give an interval', () => {
    expect(
      estimateCviConfidenceInterval({ subjects: 1, samplesPerSubject: 6, replicates: 2, cva: 2, cvi: 5 }),
    ).toBeNull();
  });
});

describe('qualityItemName (the appraisal board names items, not keys)', () => {
  it.each([
    ['samples', 'QI3 Samples'],
    ['ci', 'QI12 Confidence Limits'],
    ['unknown_key', 'unknown_key'],
  ])('%s → %s', (key, name) => {
    expect(qualityItemName(key)).toBe(name);
  });
});
