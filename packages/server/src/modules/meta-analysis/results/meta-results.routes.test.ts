import { metaAnalyse } from '@bvdb/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LegacyMetaRecordSchema } from '@bvdb/contract';
import { analyteIdByName } from '../../../test/analytes.js';
import { createTestApp, type TestContext } from '../../../test/test-app.js';

let ctx: TestContext;
let creatinineId: number;
beforeAll(async () => {
  ctx = await createTestApp();
  creatinineId = await analyteIdByName(ctx.app, 'Creatinine');
});
afterAll(async () => ctx.close());

describe('meta-analysis results', () => {
  it('GET /api/meta_calculations lists displayed results, one entry per measurand', async () => {
    const res = (await ctx.app.inject({ url: '/api/meta_calculations' })).json<{
      code: string;
      data: { analyte: { id: number }; metas: { var_type: string; median: number }[] }[];
    }>();
    expect(res.code).toBe('success');
    expect(res.data.length).toBeGreaterThan(10);
    const metas = res.data.flatMap((e) => e.metas);
    expect(metas.every((m) => m.var_type === ':cvi' || m.var_type === ':cvg')).toBe(true);
  });

  it('meta_by_analyte: the stored CVI result equals the domain engine run on the datasets it lists', async () => {
    const res = await ctx.app.inject({ url: `/api/meta_calculations/meta_by_analyte/${creatinineId}` });
    expect(res.statusCode).toBe(200);
    const [entry] = res.json<{ data: { analyte: { display_name: string }; metas: unknown[] }[] }>().data;
    expect(entry!.analyte.display_name).toBe('Creatinine');
    const metas = entry!.metas.map((m) => LegacyMetaRecordSchema.parse(m));
    const serumCvi = metas.find((m) => m.matrix.matrix_expansion === 'Serum' && m.var_type === ':cvi')!;
    expect(serumCvi.number_used).toBeGreaterThan(0);
    const again = metaAnalyse(
      serumCvi.datasets.map((d) => ({
        id: d.study_id,
        include: true,
        score: d.grade as 'A' | 'B' | 'C' | 'D',
        cv: d.cv,
        ciLower: d.ci_lower,
        ciUpper: d.ci_upper,
      })),
    );
    expect(serumCvi.median).toBeCloseTo(again.weightedMedian!, 10);
    expect(serumCvi.number_used).toBe(again.n);
    expect(serumCvi.references_array).toMatch(/^\[\d+(, \d+)*\]$/);
  });

  it('by_analyte_matrix_type takes the type with or without the colon', async () => {
    const a = await ctx.app.inject({
      url: `/api/meta_calculations/by_analyte_matrix_type/${creatinineId}/1/cvi`,
    });
    const b = await ctx.app.inject({
      url: `/api/meta_calculations/by_analyte_matrix_type/${creatinineId}/1/:cvi`,
    });
    expect(a.statusCode).toBe(200);
    expect(a.json()).toEqual(b.json());
    expect(a.json<{ metacalculations: { name: string }[] }>().metacalculations[0]!.name).toMatch(
      /Creatinine/,
    );
    const bad = await ctx.app.inject({
      url: `/api/meta_calculations/by_analyte_matrix_type/${creatinineId}/1/cvx`,
    });
    expect(bad.statusCode).toBe(400);
  });

  it('404s an unknown measurand', async () => {
    expect((await ctx.app.inject({ url: '/api/meta_calculations/meta_by_analyte/987654' })).statusCode).toBe(
      404,
    );
  });
});
