import { describe, expect, it } from 'vitest';
import { normalQuantile } from '../distributions.js';
import { mulberry32 } from '../prng.js';
import { nestedAnova } from './anova.js';
import { chiSquareVarianceInterval, mlsInterval } from './intervals.js';

// Coverage of the 95 % intervals in an unbalanced design (15 subjects, 3–6 samples each, 70 % of
// samples in duplicate) simulated with known components: σG 15, σI 8, σA 4 around a mean of 100.
// No R reference exists for the MLS interval with three mean squares, so its coverage is the check.
describe('interval coverage, seeded simulation', () => {
  const rng = mulberry32(42);
  const z = (): number => normalQuantile(Math.min(Math.max(rng(), 1e-12), 1 - 1e-12));
  const [sg, si, sa] = [15, 8, 4];
  const runs = 1500;
  const hit = { a: 0, i: 0, g: 0 };
  for (let b = 0; b < runs; b++) {
    const data: number[][][] = [];
    for (let i = 0; i < 15; i++) {
      const mu = 100 + sg * z();
      const samples = 3 + Math.floor(rng() * 4);
      const subject: number[][] = [];
      for (let j = 0; j < samples; j++) {
        const x = mu + si * z();
        subject.push(Array.from({ length: rng() < 0.7 ? 2 : 1 }, () => x + sa * z()));
      }
      data.push(subject);
    }
    const a = nestedAnova(data);
    const k = a.n0_prime / a.n0;
    const ca = chiSquareVarianceInterval(a.replicates.ms, a.replicates.df, 0.05);
    const ci = mlsInterval(
      [
        { coefficient: 1 / a.n0, ...a.between_samples },
        { coefficient: -1 / a.n0, ...a.replicates },
      ],
      0.05,
    );
    const cg = mlsInterval(
      [
        { coefficient: 1 / a.n0_double_prime, ...a.between_subjects },
        { coefficient: -k / a.n0_double_prime, ...a.between_samples },
        { coefficient: -(1 - k) / a.n0_double_prime, ...a.replicates },
      ],
      0.05,
    );
    if (ca[0] <= sa ** 2 && sa ** 2 <= ca[1]) hit.a++;
    if (ci[0] <= si ** 2 && si ** 2 <= ci[1]) hit.i++;
    if (cg[0] <= sg ** 2 && sg ** 2 <= cg[1]) hit.g++;
  }
  // 1500 runs: the binomial SD of a 95 % coverage is 0.56 %, so 93–97 % is about ±3.5 SD.
  it.each([
    ['CVA (χ²)', hit.a],
    ['CVI (MLS)', hit.i],
    ['CVG (MLS, three mean squares)', hit.g],
  ])('%s covers about 95 %%', (_name, hits) => {
    expect(hits / runs).toBeGreaterThan(0.93);
    expect(hits / runs).toBeLessThan(0.97);
  });
});
