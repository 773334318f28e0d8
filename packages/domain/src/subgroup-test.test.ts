import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from './prng.js';
import {
  formatPValue,
  logCvWithVariance,
  subgroupSentence,
  subgroupTest,
  type SubgroupMethod,
  type SubgroupStudy,
} from './subgroup-test.js';

interface Fixture {
  meta: { metafor: string };
  sets: {
    name: string;
    studies: SubgroupStudy[];
    results: {
      method: SubgroupMethod;
      qm: number;
      df: number;
      p: number;
      tau2: number;
      qe: number;
      qeDf: number;
      qeP: number;
      groups: { group: string; k: number; logMean: number; se: number }[];
    }[];
  }[];
}

// Made by fixtures/subgroup-test.R with metafor; the test never needs R.
const fixture = JSON.parse(
  fs.readFileSync(new URL('./fixtures/subgroup-test.json', import.meta.url), 'utf8'),
) as Fixture;

describe("subgroupTest equals metafor's rma(yi, vi, mods = ~ factor(group)) to 1e-6", () => {
  const cases = fixture.sets.flatMap((set) => set.results.map((r) => [set.name, r.method, set, r] as const));
  it.each(cases)('%s, %s', (_name, method, set, want) => {
    const got = subgroupTest(set.studies, method)!;
    expect(got).not.toBeNull();
    expect(got.qm).toBeCloseTo(want.qm, 6);
    expect(got.df).toBe(want.df);
    expect(got.p).toBeCloseTo(want.p, 6);
    expect(got.tau2).toBeCloseTo(want.tau2, 6);
    expect(got.qe).toBeCloseTo(want.qe, 6);
    expect(got.qeDf).toBe(want.qeDf);
    expect(got.qeP).toBeCloseTo(want.qeP, 6);
    const byName = new Map(got.groups.map((g) => [g.group, g]));
    for (const g of want.groups) {
      expect(byName.get(g.group)!.k).toBe(g.k);
      expect(byName.get(g.group)!.logMean).toBeCloseTo(g.logMean, 6);
      expect(byName.get(g.group)!.se).toBeCloseTo(g.se, 6);
    }
  });

  it('covers a difference, no difference, three groups and studies known by their df', () => {
    const p = (name: string) => fixture.sets.find((s) => s.name === name)!.results[0]!.p;
    expect(p('alt_athletes_vs_healthy')).toBeLessThan(0.001);
    expect(p('homogeneous')).toBeGreaterThan(0.5);
    expect(fixture.sets.find((s) => s.name === 'three_intervals_with_df')!.results[0]!.df).toBe(2);
  });
});

describe('logCvWithVariance', () => {
  it('takes the variance of ln CV from the CI, else from the degrees of freedom', () => {
    const z = 1.959963984540054;
    expect(logCvWithVariance({ cv: 10, ciLower: 8, ciUpper: 12.5 })!.vi).toBeCloseTo(
      ((Math.log(12.5) - Math.log(8)) / (2 * z)) ** 2,
      12,
    );
    expect(logCvWithVariance({ cv: 10, df: 50 })).toEqual({ yi: Math.log(10), vi: 0.01 });
    expect(logCvWithVariance({ cv: 10, ciLower: 0, ciUpper: 12, df: 25 })!.vi).toBe(0.02);
    expect(logCvWithVariance({ cv: 10 })).toBeNull();
  });

  it('leaves out studies with neither, and needs two groups', () => {
    const r = subgroupTest([
      { group: 'a', cv: 5, df: 20 },
      { group: 'a', cv: 6, df: 30 },
      { group: 'b', cv: 9, df: 25 },
      { group: 'b', cv: 9 },
    ])!;
    expect(r.skipped).toBe(1);
    expect(r.groups.map((g) => g.k)).toEqual([2, 1]);
    expect(subgroupTest([{ group: 'a', cv: 5, df: 20 }])).toBeNull();
  });
});

/** Standard normal deviates from a seeded uniform source (Box–Muller). */
function normals(random: () => number) {
  return () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

describe('properties', () => {
  it('is symmetric: the order of studies and of groups, and the groups’ names, change nothing', () => {
    const set = fixture.sets.find((s) => s.name === 'alt_athletes_vs_healthy')!.studies;
    for (const method of ['REML', 'FE'] as const) {
      const a = subgroupTest(set, method)!;
      const reversed = subgroupTest([...set].reverse(), method)!;
      const renamed = subgroupTest(
        set.map((s) => ({ ...s, group: s.group === 'Athletes' ? 'zz' : 'aa' })),
        method,
      )!;
      expect(reversed.qm).toBe(a.qm);
      expect(reversed.p).toBe(a.p);
      expect(renamed.qm).toBeCloseTo(a.qm, 12);
      expect(renamed.p).toBeCloseTo(a.p, 12);
    }
  });

  // Under no difference the p-value is uniform: studies drawn from one population, labels permuted
  // at random; Kolmogorov–Smirnov distance to U(0, 1) below its 1 % critical value 1.628/√n.
  it.each(['FE', 'REML'] as const)('%s: the p-value is uniform on permuted labels (seeded)', (method) => {
    const random = mulberry32(4747);
    const normal = normals(random);
    const runs = 600;
    const ps: number[] = [];
    for (let r = 0; r < runs; r++) {
      const k = 14;
      const tau = method === 'FE' ? 0 : 0.1;
      const studies = Array.from({ length: k }, () => {
        const df = 20 + Math.floor(random() * 80);
        const vi = 1 / (2 * df);
        return { cv: Math.exp(Math.log(10) + normal() * Math.sqrt(vi + tau * tau)), df };
      });
      const labels: string[] = studies.map((_, i) => (i < k / 2 ? 'x' : 'y'));
      for (let i = labels.length - 1; i > 0; i--) {
        const j = Math.floor(random() * (i + 1));
        [labels[i], labels[j]] = [labels[j]!, labels[i]!];
      }
      ps.push(
        subgroupTest(
          studies.map((s, i) => ({ ...s, group: labels[i]! })),
          method,
        )!.p,
      );
    }
    ps.sort((a, b) => a - b);
    const d = Math.max(...ps.map((p, i) => Math.max((i + 1) / runs - p, p - i / runs)));
    expect(d).toBeLessThan(1.628 / Math.sqrt(runs));
  });
});

describe('the sentence', () => {
  it('says which is higher, both values and the p-value', () => {
    expect(
      subgroupSentence({
        measurand: 'ALT',
        estimate: 'CVI',
        a: { label: 'Athletes', cv: 21.4 },
        b: { label: 'healthy adults', cv: 9.3 },
        p: 0.0004,
      }),
    ).toBe("Athletes' CVI of ALT is higher than healthy adults': 21.4 % vs 9.3 %, p < 0.001.");
    expect(
      subgroupSentence({
        measurand: 'AST',
        estimate: 'CVI',
        a: { label: 'children', cv: 8.04 },
        b: { label: 'elderly', cv: 11.2 },
        p: 0.0042,
      }),
    ).toBe("Children's CVI of AST is lower than elderly's: 8.0 % vs 11.2 %, p = 0.004.");
  });

  it('does not call a difference at p ≥ 0.05', () => {
    expect(
      subgroupSentence({
        measurand: 'AST',
        estimate: 'CVG',
        a: { label: 'Males', cv: 20.1 },
        b: { label: 'females', cv: 18.7 },
        p: 0.4321,
      }),
    ).toBe("Males' CVG of AST does not differ significantly from females': 20.1 % vs 18.7 %, p = 0.43.");
    expect(formatPValue(0.05)).toBe('p = 0.05');
  });
});
