import { describe, expect, it } from 'vitest';
import { calculateAps, desirableTotalErrorVariant } from './aps.js';
import {
  indexOfIndividuality,
  indexOfIndividualityWithCva,
  personalisedReferenceInterval,
  samplesForSetPoint,
} from './applications.js';
import { DomainInputError } from './errors.js';
import {
  percentChange,
  probabilityFromZ,
  rcvAsymmetric,
  rcvModellingCurve,
  rcvSymmetric,
  zFromProbability,
  Z_VALUE_TABLE,
} from './rcv.js';
import { readTestCsv } from './test-data.js';

const inputs = (s: string) =>
  Object.fromEntries(
    s.split(';').map((kv) => {
      const [k, v] = kv.split('=');
      return [k!.trim(), parseFloat(v!)];
    }),
  ) as Record<string, number>;

describe('formula_examples.csv: every worked value', () => {
  const rows = readTestCsv('formula_examples.csv');
  it.each(rows.map((r) => [`${r.formula} ${r.output}`, r] as const))('%s', (_, r) => {
    const x = inputs(r.inputs!);
    const expected = Number(r.expected);
    let actual: number;
    const level = r.output!.split(' ')[0] as 'optimum' | 'desirable' | 'minimum';
    const lv = level === 'optimum' ? 'optimal' : level;
    if (r.formula!.startsWith('APS')) {
      const aps = calculateAps(x.CVI!, x.CVG ?? 0)[lv];
      if (r.formula!.includes('imprecision')) actual = aps.imprecision;
      else if (r.formula!.includes('bias')) actual = aps.bias;
      else if (r.formula!.includes('total allowable error')) actual = aps.totalError;
      else actual = aps.mau;
    } else if (r.formula === 'RCV symmetric') {
      actual = rcvSymmetric(x.CVI!, x.CVA!, x.Z!);
    } else {
      const { up, down } = rcvAsymmetric(x.CVI!, x.CVA!, x.Z!);
      actual = r.output!.includes('up') ? up : down;
    }
    expect(actual).toBeCloseTo(expected, 3);
  });
});

describe('APS', () => {
  it('desirable TE variant of the spec', () => {
    expect(desirableTotalErrorVariant(12.6, 30)).toBeCloseTo(
      1.65 * 6.3 + 0.25 * Math.sqrt(12.6 ** 2 + 30 ** 2),
      12,
    );
  });
  it('refuses negative or non-numeric input with a message', () => {
    expect(() => calculateAps(-1, 2)).toThrow(DomainInputError);
    expect(() => calculateAps(Number.NaN, 2)).toThrow('CVI must be a number');
  });
});

describe('z and probability', () => {
  it('matches the presets of the spec (0.025 → 1.96, 0.05 → 1.64)', () => {
    expect(zFromProbability(0.025)).toBeCloseTo(1.96, 2);
    expect(zFromProbability(0.05)).toBeCloseTo(1.645, 3);
  });
  it('round-trips through the z table', () => {
    for (const row of Z_VALUE_TABLE) expect(zFromProbability(probabilityFromZ(row.z))).toBeCloseTo(row.z, 8);
  });
  it('the z table agrees with the calculator for the same p (2.33 and 2.58; 3.09 is one-sided 0.001)', () => {
    expect(Z_VALUE_TABLE.map((r) => [r.z, r.oneSided, r.twoSided])).toEqual([
      [1.64, '0.05', '0.10'],
      [1.96, '0.025', '0.05'],
      [2.33, '0.01', '0.02'],
      [2.58, '0.005', '0.01'],
      [2.81, '0.0025', '0.005'],
      [3.09, '0.001', '0.002'],
    ]);
    for (const row of Z_VALUE_TABLE) expect(zFromProbability(Number(row.oneSided))).toBeCloseTo(row.z, 2);
  });
  it('gives the spec error texts out of range', () => {
    expect(() => probabilityFromZ(6.5)).toThrow('z-value must be between -6 and 6');
    expect(() => zFromProbability(1e-12)).toThrow('z-value must be between -6 and 6');
    expect(() => zFromProbability(1.2)).toThrow('probability must be between 0 and 1');
    expect(() => zFromProbability(0)).toThrow('probability must be between 0 and 1');
  });
});

describe('RCV modelling curve', () => {
  it('runs from 0.5 to 0.975 in steps of 0.025, p = 1 − fraction', () => {
    const curve = rcvModellingCurve(2.7, 1);
    expect(curve).toHaveLength(20);
    expect(curve[0]).toMatchObject({ fraction: 0.5, pValue: 0.5, z: 0, up: 0, down: 0 });
    expect(curve.at(-1)!.fraction).toBe(0.975);
    expect(curve.at(-1)!.pValue).toBe(0.025);
    expect(curve.at(-1)!.z).toBeCloseTo(1.96, 2);
    for (let i = 1; i < curve.length; i++) expect(curve[i]!.up).toBeGreaterThan(curve[i - 1]!.up);
  });
});

describe('applications', () => {
  it('percent change, 0 when the first result is 0', () => {
    expect(percentChange(100, 112)).toBeCloseTo(12, 12);
    expect(percentChange(0, 5)).toBe(0);
  });
  it('index of individuality', () => {
    expect(indexOfIndividuality(4.4, 13.4)).toBeCloseTo(0.3284, 4);
    expect(() => indexOfIndividuality(4, 0)).toThrow('CVG must be greater than 0');
    // With the method's CVA (Fraser & Harris 1989): √(4.4² + 2.2²) / 13.4.
    expect(indexOfIndividualityWithCva(4.4, 2.2, 13.4)).toBeCloseTo(
      Math.sqrt(4.4 ** 2 + 2.2 ** 2) / 13.4,
      10,
    );
    expect(indexOfIndividualityWithCva(4.4, 0, 13.4)).toBeCloseTo(indexOfIndividuality(4.4, 13.4), 10);
    expect(() => indexOfIndividualityWithCva(4.4, 2, 0)).toThrow('CVG must be greater than 0');
  });
  it('samples for a set point (CVI 4.4, CVA 2.2, D 5%, z 1.96 → 4)', () => {
    expect(samplesForSetPoint({ cvi: 4.4, cva: 2.2, percentFromSetPoint: 5, z: 1.96 })).toBe(4);
    expect(() => samplesForSetPoint({ cvi: 4.4, cva: 2.2, percentFromSetPoint: 0, z: 1.96 })).toThrow(
      DomainInputError,
    );
  });
  it('personalised reference interval: the population model always, the personal one from 5 results', () => {
    const few = personalisedReferenceInterval({ results: [80, 84], cvi: 4.4, cva: 2.2 });
    expect(few).toHaveLength(1);
    const half = (1.959963984540054 * 82 * Math.sqrt(2.2 ** 2 + 4.4 ** 2) * Math.sqrt(1.5)) / 100;
    expect(few[0]!.lower).toBeCloseTo(82 - half, 8);
    const five = personalisedReferenceInterval({ results: [80, 84, 82, 79, 85], cvi: 4.4, cva: 2.2 });
    expect(five.map((i) => i.model)).toEqual(['population-cvi', 'personal-sd']);
    expect(five[1]!.factor).toBeCloseTo(2.776445, 5);
    expect(() => personalisedReferenceInterval({ results: [], cvi: 1, cva: 1 })).toThrow(
      'Enter at least one previous result',
    );
  });
});
