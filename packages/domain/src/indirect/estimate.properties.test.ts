/**
 * Properties of the indirect estimate that hold for any data (fast-check), and the behaviour of the
 * bootstrap interval over seeded simulations.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_INDIRECT_OPTIONS, estimateIndirect } from './estimate.js';
import { type SimulationDesign, scenarios, simulateResults } from './simulation.js';
import type { IndirectMethod, IndirectOptions } from './types.js';

const small: SimulationDesign = { patients: 300, mean: 100, cvg: 20, cva: 2, days: 7 };
const opts = (o: Partial<IndirectOptions>): IndirectOptions => ({ ...DEFAULT_INDIRECT_OPTIONS, ...o });

describe('indirect estimate: properties', () => {
  it(
    'multiplying every value by a constant changes nothing (every method, every number)',
    { timeout: 30_000 },
    () => {
      fc.assert(
        fc.property(
          fc.integer({ min: 1, max: 1_000_000 }),
          fc.double({ min: 1e-3, max: 1e3, noNaN: true }),
          fc.constantFrom(...scenarios()),
          (seed, factor, scenario) => {
            const rows = simulateResults(scenario, seed, small);
            const o = opts({ cva: 1, bootstrap: 25, seed });
            const a = estimateIndirect(rows, o);
            const b = estimateIndirect(
              rows.map((r) => ({ ...r, value: r.value * factor })),
              o,
            );
            a.all.methods.forEach((m, i) => {
              const n = b.all.methods[i];
              expect(n?.pairsUsed).toBe(m.pairsUsed);
              expect(n?.steps).toEqual(m.steps);
              expect(Math.abs((n?.cvTotal ?? NaN) / m.cvTotal - 1)).toBeLessThan(1e-6);
              expect(Math.abs((n?.cviInterval?.low ?? NaN) / (m.cviInterval?.low ?? NaN) - 1)).toBeLessThan(
                1e-6,
              );
              expect(Math.abs((n?.rcvModel.up ?? NaN) / m.rcvModel.up - 1)).toBeLessThan(1e-6);
              expect(n?.histogram.map((h) => h.count)).toEqual(m.histogram.map((h) => h.count));
            });
          },
        ),
        { numRuns: 6, seed: 46 },
      );
    },
  );

  it(
    'removing the pathological patients by hand leaves every method close to the true CVI',
    { timeout: 30_000 },
    () => {
      const design: SimulationDesign = { ...small, patients: 3000 };
      fc.assert(
        fc.property(
          fc.integer({ min: 1, max: 1_000_000 }),
          fc.constantFrom(...scenarios()),
          (seed, scenario) => {
            const sick = Math.round(scenario.f * design.patients);
            // simulateResults makes patients p0 … p(sick − 1) the pathological ones
            const healthy = simulateResults(scenario, seed, design).filter(
              (r) => Number(r.patient.slice(1)) >= sick,
            );
            const est = estimateIndirect(healthy, opts({ cva: design.cva, bootstrap: 0 }));
            for (const m of est.all.methods) {
              expect(m.cvi).not.toBeNull();
              expect(Math.abs((m.cvi ?? NaN) / scenario.cvi - 1)).toBeLessThan(0.1);
            }
          },
        ),
        { numRuns: 6, seed: 2022 },
      );
    },
  );

  function coverage(methods: readonly IndirectMethod[], runs: number, bootstrap: number): number[] {
    const hits = methods.map(() => 0);
    const truth = 10;
    for (let k = 0; k < runs; k++) {
      const rows = simulateResults({ d: 0, cvi: truth, f: 0, e: 1 }, 5000 + k, small);
      const est = estimateIndirect(rows, opts({ cva: small.cva, bootstrap, seed: k, methods }));
      est.all.methods.forEach((m, i) => {
        const c = m.cviInterval;
        if (c && c.low <= truth && truth <= c.high) hits[i] = (hits[i] ?? 0) + 1;
      });
    }
    return hits;
  }

  it(
    'the 95 % bootstrap interval covers the true CVI in about 95 % of seeded simulations (ratio, EMS)',
    { timeout: 30_000 },
    () => {
      // 80 runs: at a true 95 % coverage, fewer than 68 hits (85 %) has probability < 0.001
      const [ratio, ems] = coverage(['result_ratio', 'expected_mean_squares'], 80, 200);
      expect(ratio).toBeGreaterThanOrEqual(68);
      expect(ems).toBeGreaterThanOrEqual(68);
      // and it is not a trivially wide interval
      expect(ratio).toBeLessThan(80);
    },
  );

  // its replicates refit a model, so fewer runs (a shared machine may be slow: a wider timeout)
  it('the central-peak interval covers the true CVI too', { timeout: 30_000 }, () => {
    // 30 runs: at a true 95 %, fewer than 25 hits has probability ≈ 0.002
    const [central] = coverage(['central_peak'], 30, 100);
    expect(central).toBeGreaterThanOrEqual(25);
  });
});
