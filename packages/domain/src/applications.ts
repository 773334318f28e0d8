import { normalQuantile, tQuantile } from './distributions.js';
import { DomainInputError, requireFinite, requireNonNegative } from './errors.js';

/**
 * Index of individuality II = CVI / CVG (Harris, Clin Chem 1974;20:1535-42). Below about 0.6 a
 * population reference interval says little about a change in one person.
 */
export function indexOfIndividuality(cvi: number, cvg: number): number {
  requireNonNegative(cvi, 'CVI');
  requireNonNegative(cvg, 'CVG');
  if (cvg === 0) throw new DomainInputError('CVG must be greater than 0');
  return cvi / cvg;
}

/**
 * Index of individuality with the analytical variation, II = √(CVI² + CVA²) / CVG (Fraser CG, Harris
 * EK, Crit Rev Clin Lab Sci 1989;27:409-37): what a laboratory's own results show, since its
 * method adds CVA to the within-subject variation (issue 27.6).
 */
export function indexOfIndividualityWithCva(cvi: number, cva: number, cvg: number): number {
  requireNonNegative(cva, 'CVA');
  return indexOfIndividuality(Math.sqrt(cvi * cvi + cva * cva), cvg);
}

/**
 * Samples needed to estimate a person's homeostatic set point within ±D % (Fraser & Harris, Crit Rev
 * Clin Lab Sci 1989;27:409-37): n = ⌈(z·√(CVA² + CVI²) / D)²⌉.
 */
export function samplesForSetPoint(input: {
  cvi: number;
  cva: number;
  percentFromSetPoint: number;
  z: number;
}): number {
  requireNonNegative(input.cvi, 'CVI');
  requireNonNegative(input.cva, 'CVA');
  requireFinite(input.z, 'z');
  if (!Number.isFinite(input.percentFromSetPoint) || input.percentFromSetPoint <= 0) {
    throw new DomainInputError('The allowed deviation from the set point must be greater than 0');
  }
  const n = Math.ceil(
    ((input.z * Math.sqrt(input.cva ** 2 + input.cvi ** 2)) / input.percentFromSetPoint) ** 2,
  );
  return Math.max(n, 1);
}

export interface PersonalisedInterval {
  model: 'population-cvi' | 'personal-sd';
  lower: number;
  upper: number;
  /** the homeostatic set point: the mean of the person's results */
  setPoint: number;
  /** the multiplier used (z or t) */
  factor: number;
}

/**
 * Personalised reference interval around a person's homeostatic set point (the mean of their
 * results): Coskun et al., Clin Chem 2021;67:374-84, and CCLM 2022;60:629-35, as a prediction interval
 * for the next result. With the database CVI: mean ± z·mean·√(CVA² + CVI²)/100·√(1 + 1/n).
 * From 5 results on, also with the person's own SD: mean ± t(n−1)·SD·√(1 + 1/n).
 */
export function personalisedReferenceInterval(input: {
  results: readonly number[];
  cvi: number;
  cva: number;
  probability?: number;
}): PersonalisedInterval[] {
  const { results } = input;
  const probability = input.probability ?? 0.95;
  if (results.length === 0) throw new DomainInputError('Enter at least one previous result');
  for (const r of results) {
    if (!Number.isFinite(r) || r <= 0) throw new DomainInputError('Results must be numbers greater than 0');
  }
  requireNonNegative(input.cvi, 'CVI');
  requireNonNegative(input.cva, 'CVA');
  if (!(probability > 0 && probability < 1))
    throw new DomainInputError('probability must be between 0 and 1');
  const n = results.length;
  const mean = results.reduce((s, r) => s + r, 0) / n;
  const inflate = Math.sqrt(1 + 1 / n);
  const z = normalQuantile(1 - (1 - probability) / 2);
  const half = (z * mean * Math.sqrt(input.cva ** 2 + input.cvi ** 2) * inflate) / 100;
  const intervals: PersonalisedInterval[] = [
    { model: 'population-cvi', lower: mean - half, upper: mean + half, setPoint: mean, factor: z },
  ];
  if (n >= 5) {
    const sd = Math.sqrt(results.reduce((s, r) => s + (r - mean) ** 2, 0) / (n - 1));
    const t = tQuantile(1 - (1 - probability) / 2, n - 1);
    const h = t * sd * inflate;
    intervals.push({ model: 'personal-sd', lower: mean - h, upper: mean + h, setPoint: mean, factor: t });
  }
  return intervals;
}
