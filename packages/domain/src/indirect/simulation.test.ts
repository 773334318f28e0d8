/**
 * A small version of the simulation study (the full one: packages/domain/bench/indirect-simulation.mjs,
 * 128 scenarios of 5,000 patients, figures in docs/domain/indirect-bv.md).
 */
import { describe, expect, it } from 'vitest';
import { runSimulationStudy, type SimulationDesign, scenarios } from './simulation.js';

const design: SimulationDesign = { patients: 2000, mean: 100, cvg: 20, cva: 2, days: 7 };
// one scenario in 8, cycling through the f × e combinations: 16 spread over the whole grid
const subset = scenarios().filter((_, i) => i % 8 === Math.floor(i / 8) % 8);

describe('simulation study (small)', () => {
  it(
    'the best method reaches the published rate (114 of 128 = 89 %) and the plain ratio does worse',
    { timeout: 30_000 },
    () => {
      const { rows } = runSimulationStudy(subset, 7, design);
      const by = Object.fromEntries(rows.map((r) => [r.method, r]));
      expect(subset).toHaveLength(16);
      const modified = by['modified result ratio, Tukey (first result in RI)'];
      const plain = by['result ratio, Tukey'];
      expect(modified?.published).toBe(114);
      expect(modified?.recovered).toBeGreaterThanOrEqual(Math.ceil((114 / 128) * 16));
      expect(plain?.published).toBe(78);
      expect(plain?.recovered).toBeLessThan(modified?.recovered ?? 0);
      expect(by['expected mean squares']?.published).toBe(101);
      expect(by['central peak (Box–Cox normal)']?.recovered).toBeGreaterThanOrEqual(14);
    },
  );

  it('is seeded: the same seed gives the same errors, another seed other ones', () => {
    const few = subset.slice(0, 3);
    const small = { ...design, patients: 500 };
    const a = runSimulationStudy(few, 1, small).errors;
    expect(runSimulationStudy(few, 1, small).errors).toEqual(a);
    expect(runSimulationStudy(few, 2, small).errors).not.toEqual(a);
  });
});
