import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DomainInputError } from '../errors.js';
import { estimateBiologicalVariation } from './estimate.js';
import type { EstimateSet, EstimationOptions, EstimationResult, EstimationRow } from './types.js';

const STEPS_OFF = { replicate_outlier: 'none', sample_outlier: false, reed: false } as const;

/** Studies of 3–8 subjects × 2–5 samples × 1–2 replicates (the first sample of each subject in duplicate). */
const studyArb = fc
  .array(
    fc.array(fc.array(fc.integer({ min: 100, max: 10_000 }), { minLength: 1, maxLength: 2 }), {
      minLength: 2,
      maxLength: 5,
    }),
    { minLength: 3, maxLength: 8 },
  )
  .map((subjects): EstimationRow[] =>
    subjects.flatMap((samples, i) =>
      samples.flatMap((reps, j) =>
        (j === 0 && reps.length === 1 ? [...reps, reps[0]! + 7] : reps).map((v, r) => ({
          subject: `S${i}`,
          sample: String(j + 1),
          replicate: r + 1,
          value: v / 10,
        })),
      ),
    ),
  );

function tryEstimate(rows: EstimationRow[], options: Partial<EstimationOptions>): EstimationResult | null {
  try {
    return estimateBiologicalVariation(rows, options);
  } catch (e) {
    if (e instanceof DomainInputError) return null;
    throw e;
  }
}

function expectSameCvs(a: EstimateSet, b: EstimateSet): void {
  const close = (x: number, y: number): void =>
    expect(Math.abs(x - y)).toBeLessThanOrEqual(1e-7 * Math.max(1, Math.abs(y)));
  close(a.cva, b.cva);
  close(a.cvi, b.cvi);
  for (const k of ['cva_ci', 'cvi_ci'] as const) a[k].forEach((v, i) => close(v, b[k][i]!));
  if (a.cvg !== undefined) {
    close(a.cvg, b.cvg!);
    a.cvg_ci!.forEach((v, i) => close(v, b.cvg_ci![i]!));
  }
}

describe('estimation properties', () => {
  it('multiplying every result by a constant changes no CV, with every step on', () => {
    fc.assert(
      fc.property(studyArb, fc.double({ min: 0.01, max: 1000, noNaN: true }), (rows, k) => {
        const a = tryEstimate(rows, {});
        fc.pre(a !== null);
        const b = tryEstimate(
          rows.map((r) => ({ ...r, value: r.value! * k })),
          {},
        )!;
        expect(b.excluded.map((e) => [e.step, e.subject, e.sample])).toEqual(
          a.excluded.map((e) => [e.step, e.subject, e.sample]),
        );
        expectSameCvs(b.estimates.classic, a.estimates.classic);
        expectSameCvs(b.estimates.cv_anova, a.estimates.cv_anova);
      }),
      { numRuns: 150 },
    );
  });

  it("multiplying one subject's results by a constant changes no CV-ANOVA estimate", () => {
    fc.assert(
      fc.property(studyArb, fc.double({ min: 0.01, max: 1000, noNaN: true }), (rows, k) => {
        const a = tryEstimate(rows, STEPS_OFF)!;
        const b = tryEstimate(
          rows.map((r) => (r.subject === 'S1' ? { ...r, value: r.value! * k } : r)),
          STEPS_OFF,
        )!;
        expectSameCvs(b.estimates.cv_anova, a.estimates.cv_anova);
      }),
      { numRuns: 150 },
    );
  });

  it('removing by hand what the pipeline flags, with the steps off, gives the same estimates', () => {
    let flagged = 0;
    fc.assert(
      fc.property(
        studyArb,
        fc.constantFrom('sample' as const, 'subject' as const),
        (rows, replicate_outlier) => {
          const a = tryEstimate(rows, { replicate_outlier });
          fc.pre(a !== null);
          if (a.excluded.length) flagged++;
          const kept = rows.filter(
            (r) =>
              !a.excluded.some(
                (e) =>
                  e.subject === r.subject &&
                  (e.step !== 'replicate_cochran' ||
                    replicate_outlier === 'subject' ||
                    e.sample === r.sample),
              ),
          );
          const b = tryEstimate(kept, STEPS_OFF)!;
          expect(b.anova).toEqual(a.anova);
          expectSameCvs(b.estimates.classic, a.estimates.classic);
          expectSameCvs(b.estimates.cv_anova, a.estimates.cv_anova);
        },
      ),
      { numRuns: 200 },
    );
    expect(flagged).toBeGreaterThan(10);
  });
});
