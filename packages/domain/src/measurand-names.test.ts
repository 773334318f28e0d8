import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  matrixKey,
  matrixPartKeys,
  measurandNameKey,
  measurandNameKeys,
  measurandNamePartKeys,
} from './measurand-names.js';
import { MenuCatalogue, matchMenuLine, type MenuCatalogueEntry } from './menu-match.js';

describe('measurandNameKey: the differences a lab system makes without meaning anything', () => {
  it.each([
    ['Calcium (total)', 'Calcium'],
    ['Total cholesterol', 'Cholesterol (total)'],
    ['Cholesterol, total, serum', 'cholesterol'],
    ['Hemoglobin', 'Haemoglobin'],
    ['Hematocrit', 'Haematocrit'],
    ['Estradiol', 'Oestradiol'],
    ['Magnesium (ionised)', 'Magnesium (ionized)'],
    ['Triglyceride', 'Triglycerides'],
    ['Platelet', 'Platelets'],
    ['cholesterol HDL', 'HDL cholesterol'],
    ['HDL-Cholesterol', 'hdl cholesterol'],
    ['C Reactive Protein', 'C-reactive protein'],
    ['Créatinine', 'Creatinine'],
    ['Glucose mmol/L', 'Glucose'],
    ['ALT U/L', 'ALT'],
    ['Vitamin B-12', 'Vitamin B12'],
    ['Vitamin B 12', 'Vitamin B12'],
    ['Vitamin D 25-OH', '25-OH vitamin D'],
    ['IGF1', 'IGF-1'],
    ['γ-GT', 'Gamma GT'],
    ['Bilirubin, total', 'Bilirubin (total)'],
  ])('"%s" = "%s"', (a, b) => {
    expect(measurandNameKey(a)).toBe(measurandNameKey(b));
  });

  it.each([
    ['Free T4', 'T4'],
    ['HDL cholesterol', 'LDL cholesterol'],
    ['Prostate specific antigen (free)', 'Prostate specific antigen (total)'],
    ['Urine albumin/creatinine ratio', 'Urine albumin'],
    ['Troponin I', 'Troponin T'],
    ['Amylase', 'Pancreatic amylase'],
  ])('"%s" ≠ "%s"', (a, b) => {
    expect(measurandNameKey(a)).not.toBe(measurandNameKey(b));
  });

  it('reads the parentheses as another name only when written as an abbreviation', () => {
    expect(measurandNamePartKeys('Alkaline phosphatase (ALP)').sort()).toEqual([
      'alkaline phosphatase',
      'alp',
    ]);
    expect(measurandNamePartKeys('Free thyroxine (FT4)').sort()).toEqual(['4 ft', 'free thyroxine']);
    // A qualifier in lower case names a variant: only the name without it is a part.
    expect(measurandNamePartKeys('Prostate specific antigen (free)')).toEqual(['antigen prostate specific']);
    expect(measurandNamePartKeys('Cardiac troponin I (hs)')).toEqual(['cardiac i troponin']);
    // "(total)" is a noise word: the whole key is already the name without it.
    expect(measurandNamePartKeys('Calcium (total)')).toEqual([]);
    expect(measurandNameKeys('Urine albumin (AER or albumin/creatinine ratio)')).toEqual(
      expect.arrayContaining(['aer', 'albumin creatinine ratio', 'albumin urine']),
    );
  });
});

describe('matrices: one side of a pooled matrix, synonyms and word order', () => {
  it('keys', () => {
    expect(matrixKey('EDTA whole blood')).toBe(matrixKey('Whole blood (EDTA)'));
    expect(matrixKey('Whole Blood EDTA')).toBe(matrixKey('Whole blood (EDTA)'));
    expect(matrixKey('Blood')).toBe(matrixKey('Whole blood'));
    expect(matrixKey('Faeces')).toBe(matrixKey('Feces'));
    expect(matrixKey('Stool')).toBe(matrixKey('Feces'));
    expect(matrixKey('Serum/plasma')).toBe(matrixKey('Serum/Plasma (pooled)'));
    expect(matrixPartKeys('Serum/Plasma (pooled)').sort()).toEqual(['plasma', 'serum']);
  });
});

const entry = (
  id: number,
  displayName: string,
  matrices: string[],
  names: string[] = [],
): MenuCatalogueEntry => ({
  measurandId: id,
  displayName,
  names: [displayName, ...names],
  codes: [],
  matrices,
});

const catalogue = new MenuCatalogue([
  entry(1, 'Alkaline phosphatase (ALP)', ['Serum']),
  entry(2, 'Calcium (total)', ['Serum']),
  entry(3, 'Cholesterol (total)', ['Serum/Plasma (pooled)']),
  entry(4, 'HDL cholesterol', ['Serum']),
  entry(5, 'Free thyroxine (FT4)', ['Serum'], ['Free T4']),
  entry(6, 'Total thyroxine (T4)', ['Serum']),
  entry(7, 'Glucose', ['Serum/Plasma (pooled)', 'Whole blood']),
  entry(8, 'Prostate specific antigen (total)', ['Serum']),
  entry(9, 'Prostate specific antigen (free)', ['Serum']),
  entry(10, 'Haemoglobin', ['Whole blood', 'Whole blood (EDTA)']),
]);
const match = (name: string, matrix: string | null = null) =>
  matchMenuLine(catalogue, { name, code: null, matrix });

describe('matchMenuLine by the names a lab writes (issue 42.1)', () => {
  it.each([
    ['Alkaline phosphatase', null, 1, 'Serum'],
    ['ALP', null, 1, 'Serum'],
    ['Calcium', null, 2, 'Serum'],
    ['Cholesterol', null, 3, 'Serum/Plasma (pooled)'],
    ['Cholesterol', 'Plasma', 3, 'Serum/Plasma (pooled)'],
    ['Free T4', null, 5, 'Serum'],
    ['FT4', null, 5, 'Serum'],
    ['Glucose', 'Plasma', 7, 'Serum/Plasma (pooled)'],
    ['Glucose', 'Serum/plasma', 7, 'Serum/Plasma (pooled)'],
    ['Glucose', 'Blood', 7, 'Whole blood'],
    ['Hemoglobin', 'EDTA whole blood', 10, 'Whole blood (EDTA)'],
    ['Prostate specific antigen', null, 8, 'Serum'],
    ['prostate-specific antigen (free)', null, 9, 'Serum'],
  ])('"%s" in %s → measurand %i, %s', (name, matrix, id, m) => {
    const r = match(name, matrix);
    expect(r.status, r.why ?? '').toBe('matched');
    expect(r.match).toEqual(expect.objectContaining({ measurandId: id, matrix: m }));
  });

  it('is ambiguous when more than one measurand fits, with each as a candidate', () => {
    const r = match('Thyroxine (FT4 or T4)');
    expect(r.status).toBe('ambiguous');
    expect(r.candidates.map((c) => c.measurandId).sort()).toEqual([5, 6]);
  });

  it('gives every line with a word in common the measurands to choose from, the most words first', () => {
    const r = match('Free thyroxine index');
    expect(r.status).toBe('unmatched');
    expect(r.candidates[0]!.measurandId).toBe(5);
    expect(r.candidates.map((c) => c.measurandId)).toContain(6);
    expect(match('Zinc').candidates).toEqual([]);
  });
});

/** A name as a lab system may write it: case, hyphens, word order, "total", "serum", a unit. */
const variantOf = (name: string) =>
  fc
    .record({
      upper: fc.boolean(),
      hyphens: fc.boolean(),
      reverse: fc.boolean(),
      noise: fc.constantFrom('', ', total', ' serum', ' (mmol/L)', ' U/L', ', Serum'),
      british: fc.boolean(),
    })
    .map(({ upper, hyphens, reverse, noise, british }) => {
      let s = name;
      if (british) s = s.replace(/hem/gi, 'haem').replace(/ize/g, 'ise');
      if (reverse && !/[()]/.test(s)) s = s.split(' ').reverse().join(' ');
      if (hyphens) s = s.replace(/-/g, ' ');
      s += noise;
      return upper ? s.toUpperCase() : s;
    });

describe('property: a stored name, its abbreviation and its spelling variants resolve to its measurand', () => {
  it('holds for every name of the catalogue above', () => {
    const names: [string, number][] = [
      ['Alkaline phosphatase (ALP)', 1],
      ['Alkaline phosphatase', 1],
      ['ALP', 1],
      ['Free thyroxine (FT4)', 5],
      ['Free T4', 5],
      ['Hemoglobin', 10],
      ['HDL cholesterol', 4],
      ['Calcium', 2],
    ];
    fc.assert(
      fc.property(fc.constantFrom(...names), fc.nat(), ([name, id], seed) => {
        const written = fc.sample(variantOf(name), { seed, numRuns: 1 })[0]!;
        const r = match(written);
        expect(r.status, written).toBe('matched');
        expect(r.match!.measurandId, written).toBe(id);
      }),
      { numRuns: 300 },
    );
  });
});
