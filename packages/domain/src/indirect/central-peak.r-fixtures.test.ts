/**
 * The central-peak fit against the same model written independently in base R
 * (test-data/indirect/central-peak.R; its output central-peak.fixtures.json beside it is committed, so these
 * tests never need R).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CENTRAL_BINS, CENTRAL_Z, centralPeak, fitTruncatedBoxCox } from './methods.js';
import { type PairSample, toSample } from './sample.js';
import { binCountsOf, weigh } from './stats.js';

interface Fixture {
  bins: number;
  z: number;
  cases: {
    name: string;
    logRatios: number[];
    fixedRegion: {
      lo: number;
      hi: number;
      start: [number, number, number];
      lambda: number;
      mu: number;
      sigma: number;
      negLogLik: number;
    };
    centralPeak: {
      lambda: number;
      mu: number;
      sigma: number;
      lo: number;
      hi: number;
      inside: number;
      cvTotal: number;
    };
  }[];
}

const fixture = JSON.parse(
  readFileSync(new URL('../../test-data/indirect/central-peak.fixtures.json', import.meta.url), 'utf8'),
) as Fixture;

function sampleOf(logRatios: readonly number[]): PairSample {
  const n = logRatios.length;
  return toSample({
    x1: new Float64Array(n).fill(1),
    x2: Float64Array.from(logRatios, (y) => Math.exp(y)),
    patient: Int32Array.from({ length: n }, (_, i) => i),
    patients: n,
    summary: { results: 2 * n, patients: n, droppedDuplicateTimes: 0, pairs: n, steps: [] },
  });
}

describe('central-peak fit against R (base optim, same model)', () => {
  it('uses the settings the R script was run with', () => {
    expect(fixture.bins).toBe(CENTRAL_BINS);
    expect(fixture.z).toBe(CENTRAL_Z);
  });

  for (const c of fixture.cases) {
    it(`${c.name}: the truncated Box–Cox-normal fit on a fixed region matches R's optimum`, () => {
      const s = sampleOf(c.logRatios);
      const r = c.fixedRegion;
      const counts = binCountsOf(weigh(s.y, null), r.lo, r.hi, CENTRAL_BINS);
      const fit = fitTruncatedBoxCox(
        counts,
        r.lo,
        r.hi,
        { lambda: r.start[0], mu: r.start[1], sigma: Math.exp(r.start[2]) },
        2000,
      );
      // λ is weakly identified on a narrow region; the distribution it implies is what must agree
      expect(fit.sigma).toBeCloseTo(r.sigma, 3);
      expect(fit.mu).toBeCloseTo(r.mu, 3);
      expect(fit.lambda).toBeCloseTo(r.lambda, 1);
    });

    it(`${c.name}: the iterated central peak gives R's region and CV_total`, () => {
      const s = sampleOf(c.logRatios);
      const fit = centralPeak(weigh(s.y, null));
      const cp = c.centralPeak;
      // the region moves in steps of the binning, so two optimisers settle on fixed points a hair
      // apart: 0.5 % of CV_total, far inside the estimate's own sampling error at n = 3000 (≈ 1.5 %)
      expect(Math.abs(fit.cvTotal / cp.cvTotal - 1)).toBeLessThan(0.005);
      expect(Math.abs(fit.region.lo - cp.lo)).toBeLessThan(0.003);
      expect(Math.abs(fit.region.hi - cp.hi)).toBeLessThan(0.003);
      expect(Math.abs(fit.pairsUsed - cp.inside)).toBeLessThanOrEqual(0.01 * s.n);
    });
  }
});
