import { ApplicationsSchema, ChangeVerdictSchema, type ApplicationsRow } from '@bvdb/contract';
import { assessChange, rcvAsymmetric } from '@bvdb/domain';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/test-app.js';

// Issue 45, "How we know it is right", against the real endpoint: a handful of random cases each
// (every case is a request; the domain's own properties run hundreds in change-verdict.test.ts).
let ctx: TestContext;
let row: ApplicationsRow;

beforeAll(async () => {
  ctx = await createTestApp();
  const table = ApplicationsSchema.parse((await ctx.app.inject({ url: '/api/v1/applications' })).json());
  row = table.data.find((r) => r.headline && r.cvi?.lower !== null && r.cvi?.upper !== null)!;
});
afterAll(async () => ctx.close());

const verdict = async (q: Record<string, string | number>) => {
  const query = new URLSearchParams(Object.entries(q).map(([k, v]): [string, string] => [k, String(v)]));
  const res = await ctx.app.inject({ url: `/api/v1/rcv?${query.toString()}` });
  expect(res.statusCode, res.body).toBe(200);
  return ChangeVerdictSchema.parse(res.json());
};

// Numbers as a laboratory system sends them (a query string carries them as written).
const cases = fc.record({
  cva: fc.integer({ min: 1, max: 300 }).map((v) => v / 10),
  x1: fc.integer({ min: 1, max: 100_000 }).map((v) => v / 100),
  ratio: fc.integer({ min: 20, max: 500 }).map((v) => v / 100),
  probability: fc.constantFrom(0.8, 0.9, 0.95, 0.99, 0.999),
  direction: fc.constantFrom('either', 'one'),
  n1: fc.integer({ min: 1, max: 5 }),
  n2: fc.integer({ min: 1, max: 5 }),
});
const RUNS = { numRuns: 8 };

describe('GET /api/v1/rcv, for random inputs (issue 45)', () => {
  it('equals the RCV tool, and is U above up, D below down and nothing otherwise', async () => {
    await fc.assert(
      fc.asyncProperty(cases, async (c) => {
        const x2 = Number((c.x1 * c.ratio).toFixed(2));
        const v = await verdict({ measurand: row.measurand_id, ...c, x2 });
        const tool = assessChange({
          first: c.x1,
          second: x2,
          cvi: row.cvi!.median,
          cva: c.cva,
          probability: 1 - c.probability,
          direction: c.direction === 'either' ? 'either-direction' : 'one-direction',
          n1: c.n1,
          n2: c.n2,
        });
        if (tool.kind !== 'verdict') throw new Error(tool.kind);
        expect([v.rcv.up, v.rcv.down, v.change_pct, v.significant]).toEqual([
          tool.up,
          tool.down,
          tool.change,
          tool.realChange,
        ]);
        const expected = v.change_pct > v.rcv.up ? 'U' : v.change_pct < v.rcv.down ? 'D' : null;
        expect(v.interpretation.v2_0078).toBe(expected);
        expect(v.interpretation.v3?.code ?? null).toBe(expected);
        if (c.n1 === 1 && c.n2 === 1) {
          const two = rcvAsymmetric(row.cvi!.median, c.cva, v.inputs.z);
          expect([v.rcv.up, v.rcv.down]).toEqual([two.up, two.down]);
        }
      }),
      RUNS,
    );
  });

  it('equals /applications (either direction, n = 1) for the same CVA and probability', async () => {
    await fc.assert(
      fc.asyncProperty(cases, async (c) => {
        const table = ApplicationsSchema.parse(
          (
            await ctx.app.inject({
              url: `/api/v1/applications?cva=${c.cva}&probability=${c.probability}`,
            })
          ).json(),
        );
        const same = table.data.find((r) => r.measurand_id === row.measurand_id && r.matrix === row.matrix)!;
        const v = await verdict({
          measurand: row.measurand_id,
          x1: c.x1,
          x2: c.x1,
          cva: c.cva,
          probability: c.probability,
        });
        expect([v.rcv.up, v.rcv.down]).toEqual([same.rcv.up.value, same.rcv.down.value]);
        expect([v.rcv.up_range, v.rcv.down_range]).toEqual([same.rcv.up.range, same.rcv.down.range]);
      }),
      RUNS,
    );
  });

  it('is symmetric: x1 and x2 (and n1 and n2) swapped turn U into D and D into U', async () => {
    await fc.assert(
      fc.asyncProperty(cases, async (c) => {
        const x2 = Number((c.x1 * c.ratio).toFixed(2));
        fc.pre(x2 > 0);
        const there = await verdict({ measurand: row.measurand_id, ...c, x2 });
        const back = await verdict({
          measurand: row.measurand_id,
          ...c,
          x1: x2,
          x2: c.x1,
          n1: c.n2,
          n2: c.n1,
        });
        // Exactly on the boundary the two divisions may round apart: judge only clear cases.
        fc.pre(Math.abs(Math.abs(Math.log(x2 / c.x1)) - Math.log(1 + there.rcv.up / 100)) > 1e-9);
        const flip = { U: 'D', D: 'U' } as const;
        const code = there.interpretation.v2_0078;
        expect(back.interpretation.v2_0078).toBe(code === null ? null : flip[code]);
      }),
      RUNS,
    );
  });
});
