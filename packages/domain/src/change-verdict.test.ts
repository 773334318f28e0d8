import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { changeVerdict, VERDICT_NEEDS_CVA_MESSAGE, type ChangeVerdictInput } from './change-verdict.js';
import { rcvAsymmetric } from './rcv.js';
import { assessChange } from './rcv-verdict.js';
import { workbenchRow, workbenchZ } from './workbench.js';

const creatinine: ChangeVerdictInput = {
  cvi: { median: 4.4, lower: 4.1, upper: 4.7, limits: '95 % CI' },
  cva: 2.2,
  x1: 80,
  x2: 100,
  probability: 0.95,
  direction: 'either',
  n1: 1,
  n2: 1,
};

const inputs = fc.record({
  cvi: fc.double({ min: 0.5, max: 60, noNaN: true }),
  spread: fc.double({ min: 0, max: 0.5, noNaN: true }),
  cva: fc.double({ min: 0.1, max: 30, noNaN: true }),
  x1: fc.double({ min: 0.01, max: 1e4, noNaN: true }),
  ratio: fc.double({ min: 0.2, max: 5, noNaN: true }),
  probability: fc.double({ min: 0.51, max: 0.999, noNaN: true }),
  direction: fc.constantFrom('either' as const, 'one' as const),
  n1: fc.integer({ min: 1, max: 20 }),
  n2: fc.integer({ min: 1, max: 20 }),
});

type Drawn = typeof inputs extends fc.Arbitrary<infer T> ? T : never;

const toInput = (r: Drawn): ChangeVerdictInput => ({
  cvi: {
    median: r.cvi,
    lower: r.cvi * (1 - r.spread),
    upper: r.cvi * (1 + r.spread),
    limits: '95 % CI',
  },
  cva: r.cva,
  x1: r.x1,
  x2: r.x1 * r.ratio,
  probability: r.probability,
  direction: r.direction,
  n1: r.n1,
  n2: r.n2,
});

describe('changeVerdict (issue 45.4)', () => {
  it('calls a rise over the RCV U, a fall under it D, and a change within it nothing (not N)', () => {
    const up = changeVerdict(creatinine);
    expect(up.interpretation).toBe('U');
    expect(up.significant).toBe(true);
    expect(up.change).toBeCloseTo(25, 10);
    expect(up.text).toMatch(/^Significant change up: \+25\.0 % is above the RCV of \+\d+\.\d %$/);
    const down = changeVerdict({ ...creatinine, x1: 100, x2: 80 });
    expect(down.interpretation).toBe('D');
    expect(down.text).toMatch(/^Significant change down: −20\.0 % is below the RCV of −\d+\.\d %$/);
    const none = changeVerdict({ ...creatinine, x2: 84 });
    expect(none.interpretation).toBeNull();
    expect(none.significant).toBe(false);
    expect(none.text).toMatch(/^No significant change: \+5\.0 % is within the RCV/);
  });

  it('gives the RCV range over the CVI limits, and none without limits', () => {
    const v = changeVerdict(creatinine);
    expect(v.upRange!.lower).toBeLessThan(v.up);
    expect(v.upRange!.upper).toBeGreaterThan(v.up);
    expect(v.downRange!.lower).toBeLessThan(v.down);
    expect(v.upRange!.limits).toBe('95 % CI');
    const bare = changeVerdict({
      ...creatinine,
      cvi: { median: 4.4, lower: null, upper: null, limits: null },
    });
    expect(bare.upRange).toBeNull();
  });

  it('computes nothing from a missing or zero CVA, nor a first result of 0', () => {
    expect(() => changeVerdict({ ...creatinine, cva: 0 })).toThrow(VERDICT_NEEDS_CVA_MESSAGE);
    expect(() => changeVerdict({ ...creatinine, cva: Number.NaN })).toThrow(/CVA/);
    expect(() => changeVerdict({ ...creatinine, x1: 0 })).toThrow(/first result/);
    expect(() => changeVerdict({ ...creatinine, probability: 0.5 })).toThrow(/probability/);
  });

  it("equals the summary table's RCV (either direction, n = 1) for any inputs", () => {
    fc.assert(
      fc.property(inputs, (r) => {
        const input = { ...toInput(r), direction: 'either' as const, n1: 1, n2: 1 };
        const v = changeVerdict(input);
        const row = workbenchRow({
          cvi: input.cvi,
          cvg: null,
          level: 'desirable',
          probability: r.probability,
          cva: r.cva,
        });
        expect(v.z).toBe(workbenchZ(r.probability));
        expect(v.up).toBe(row.rcv.up.value);
        expect(v.down).toBe(row.rcv.down.value);
        expect(v.upRange).toEqual(row.rcv.up.range);
      }),
    );
  });

  it('equals the RCV tool for any inputs, and n1 = n2 = 1 is the two-result RCV', () => {
    fc.assert(
      fc.property(inputs, (r) => {
        const input = toInput(r);
        const v = changeVerdict(input);
        const tool = assessChange({
          first: input.x1,
          second: input.x2,
          cvi: input.cvi.median,
          cva: input.cva,
          probability: 1 - input.probability,
          direction: input.direction === 'either' ? 'either-direction' : 'one-direction',
          n1: input.n1,
          n2: input.n2,
        });
        if (tool.kind !== 'verdict') throw new Error(tool.kind);
        expect([v.up, v.down, v.significant]).toEqual([tool.up, tool.down, tool.realChange]);
        const single = changeVerdict({ ...input, n1: 1, n2: 1 });
        const two = rcvAsymmetric(input.cvi.median, input.cva, single.z);
        expect([single.up, single.down]).toEqual([two.up, two.down]);
      }),
    );
  });

  it('is U exactly when the change is above the RCV up and D exactly when below the RCV down', () => {
    fc.assert(
      fc.property(inputs, (r) => {
        const v = changeVerdict(toInput(r));
        expect(v.interpretation === 'U').toBe(v.change > v.up);
        expect(v.interpretation === 'D').toBe(v.change < v.down);
        expect(v.significant).toBe(v.interpretation !== null);
      }),
    );
  });

  it('is symmetric: swapping the results turns U into D and D into U', () => {
    fc.assert(
      fc.property(inputs, (r) => {
        const input = toInput(r);
        const there = changeVerdict(input);
        const back = changeVerdict({ ...input, x1: input.x2, x2: input.x1, n1: input.n2, n2: input.n1 });
        // Exactly on the boundary the two divisions may round apart: judge only clear cases.
        const margin = Math.abs(Math.log(input.x2 / input.x1)) - Math.log(1 + there.up / 100);
        fc.pre(Math.abs(margin) > 1e-9);
        const flip = { U: 'D', D: 'U' } as const;
        expect(back.interpretation).toBe(there.interpretation === null ? null : flip[there.interpretation]);
      }),
    );
  });

  it('judges a result on the boundary exactly as the RCV tool does: a change equal to the RCV is not significant', () => {
    // The tool compares the unrounded change with the unrounded RCV, strictly; so does the verdict.
    const next = (v: number, dir: 1 | -1) => {
      const f = new Float64Array([v]);
      const i = new BigInt64Array(f.buffer);
      i[0] = i[0]! + BigInt(dir);
      return f[0]!;
    };
    fc.assert(
      fc.property(inputs, fc.constantFrom('rise' as const, 'fall' as const), (r, side) => {
        const input = toInput(r);
        const tool = assessChange({
          first: input.x1,
          second: input.x1,
          cvi: input.cvi.median,
          cva: input.cva,
          probability: 1 - input.probability,
          direction: input.direction === 'either' ? 'either-direction' : 'one-direction',
          n1: input.n1,
          n2: input.n2,
        });
        if (tool.kind !== 'verdict') throw new Error(tool.kind);
        const edge = side === 'rise' ? tool.riseAbove : tool.fallBelow;
        fc.pre(edge > 0);
        for (const x2 of [next(edge, -1), edge, next(edge, 1)]) {
          const v = changeVerdict({ ...input, x2 });
          const t = assessChange({
            first: input.x1,
            second: x2,
            cvi: input.cvi.median,
            cva: input.cva,
            probability: 1 - input.probability,
            direction: input.direction === 'either' ? 'either-direction' : 'one-direction',
            n1: input.n1,
            n2: input.n2,
          });
          if (t.kind !== 'verdict') throw new Error(t.kind);
          expect([v.change, v.significant]).toEqual([t.change, t.realChange]);
          expect(v.interpretation).toBe(v.change > v.up ? 'U' : v.change < v.down ? 'D' : null);
        }
      }),
    );
  });
});
