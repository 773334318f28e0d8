import { FacetAnswerSchema } from '@bvdb/contract';
import { metaAnalyse, subgroupTest } from '@bvdb/domain';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bvSpecifications, metaCalculations } from '../../../db/schema.js';
import { analyteIdByName } from '../../../test/analytes.js';
import { editDataset } from '../../../test/edit-dataset.js';
import { createTestApp, type TestContext } from '../../../test/test-app.js';

let ctx: TestContext;
let altId: number;
let cholId: number;
/** Total cholesterol's serum datasets, split by study: the first half made athletes' studies. */
let athletes: number[];
let healthy: number[];

interface FacetList {
  datasets: number;
  facets: { facet: string; values: { value: string; label: string; datasets: number }[]; unknown: number }[];
}

const metasOf = async (id: number, query = '') => {
  const res = await ctx.app.inject({ url: `/api/v1/measurands/${id}/metas${query}` });
  return res;
};
const facetAnswer = async (id: number, query: string) => {
  const res = await metasOf(id, query);
  expect(res.statusCode, res.body).toBe(200);
  return FacetAnswerSchema.parse(res.json<{ facets: unknown }>().facets);
};

beforeAll(async () => {
  ctx = await createTestApp();
  altId = await analyteIdByName(ctx.app, 'Alanine aminotransferase (ALT)');
  cholId = await analyteIdByName(ctx.app, 'Cholesterol (total)');
  const db = ctx.database.db;
  // The demo holds few studies with a CI: total cholesterol's serum datasets (six studies) are made
  // eligible here, each with a CI of its CV ÷ 1.25 to × 1.25 and the grades of one eligible dataset.
  const specs = await db
    .select()
    .from(bvSpecifications)
    .where(and(eq(bvSpecifications.analyteId, cholId), eq(bvSpecifications.matrixId, 1)))
    .orderBy(bvSpecifications.referenceId, bvSpecifications.id);
  const graded = specs.find((s) => s.includeInMetaAnalysis && s.gradesFinal)!;
  const grades = {
    scale: graded.scale,
    studyPopulation: graded.studyPopulation,
    samples: graded.samples,
    measurand: graded.measurand,
    preAnalytical: graded.preAnalytical,
    replicateAnalysis: graded.replicateAnalysis,
    steadyState: graded.steadyState,
    outlierAnalysis: graded.outlierAnalysis,
    normality: graded.normality,
    varianceHomogeneity: graded.varianceHomogeneity,
    anova: graded.anova,
    ci: graded.ci,
    numberOfResults: graded.numberOfResults,
    concentrations: graded.concentrations,
  };
  // Whole studies (a reference's datasets) to each side, so each side has studies of its own.
  const refs = [...new Set(specs.map((s) => s.referenceId))];
  expect(refs.length).toBeGreaterThanOrEqual(4);
  const half = new Set(refs.slice(0, Math.floor(refs.length / 2)));
  athletes = specs.filter((s) => half.has(s.referenceId)).map((s) => s.id);
  healthy = specs.filter((s) => !half.has(s.referenceId)).map((s) => s.id);
  for (const [i, s] of specs.entries()) {
    // Athletes' CVI two and a half times as high (issue 47), their datasets not flagged "healthy".
    const cv = (half.has(s.referenceId) ? 12.5 : 5) * (1 + 0.05 * (i % 3));
    await db
      .update(bvSpecifications)
      .set({
        ...grades,
        gradesFinal: true,
        includeInMetaAnalysis: true,
        healthy: !half.has(s.referenceId),
        stateOfWellBeingId: half.has(s.referenceId) ? 4 : 1,
        // One study of its own ethnicity: a facet set with exactly one study.
        ethnicityId: s.id === athletes[0] ? 2 : 5,
        estimatesOfCvi: cv,
        reportedCviLower: cv / 1.25,
        reportedCviUpper: cv * 1.25,
      })
      .where(eq(bvSpecifications.id, s.id));
  }
});
afterAll(async () => ctx.close());

describe('GET /api/v1/measurands/{id}/facets', () => {
  it("lists each facet's values with their dataset counts, the unknowns beside them", async () => {
    const res = await ctx.app.inject({ url: `/api/v1/measurands/${cholId}/facets` });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<FacetList>();
    expect(body.facets.map((f) => f.facet)).toEqual([
      'sex',
      'age',
      'state',
      'disease',
      'ethnicity',
      'interval',
      'method',
      'matrix',
      'evidence',
    ]);
    const state = body.facets.find((f) => f.facet === 'state')!;
    expect(state.values.find((v) => v.value === 'athletes')!.datasets).toBe(athletes.length);
    expect(state.values.find((v) => v.value === 'athletes')!.label).toBe('Athletes');
    // Every dataset has one matrix and at most one sex: the counts add up to the datasets.
    const matrix = body.facets.find((f) => f.facet === 'matrix')!;
    expect(matrix.values.reduce((a, v) => a + v.datasets, 0) + matrix.unknown).toBe(body.datasets);
    const sex = body.facets.find((f) => f.facet === 'sex')!;
    expect(sex.values.map((v) => v.value)).toEqual(['males', 'females', 'mixed']);
    expect(sex.values.reduce((a, v) => a + v.datasets, 0) + sex.unknown).toBe(body.datasets);
  });

  it('is 404 for a measurand that does not exist', async () => {
    expect((await ctx.app.inject({ url: '/api/v1/measurands/999999/facets' })).statusCode).toBe(404);
  });

  it('is kept until a dataset changes, then answers the change', async () => {
    const first = await ctx.app.inject({ url: `/api/v1/measurands/${cholId}/facets` });
    const again = await ctx.app.inject({ url: `/api/v1/measurands/${cholId}/facets` });
    expect(again.headers.etag).toBe(first.headers.etag);
    const pregnant = (b: FacetList) =>
      b.facets.find((f) => f.facet === 'state')!.values.find((v) => v.value === 'pregnant')?.datasets ?? 0;
    const before = pregnant(first.json<FacetList>());
    await editDataset(ctx.app, healthy[0]!, { state_of_well_being_id: 3 });
    const after = await ctx.app.inject({ url: `/api/v1/measurands/${cholId}/facets` });
    expect(after.headers.etag).not.toBe(first.headers.etag);
    expect(pregnant(after.json<FacetList>())).toBe(before + 1);
    await editDataset(ctx.app, healthy[0]!, { state_of_well_being_id: 1 });
  });
});

describe('GET /api/v1/measurands/{id}/metas?facet.…', () => {
  it('facets that select every dataset give the global estimates exactly', async () => {
    const facets = (await ctx.app.inject({ url: `/api/v1/measurands/${altId}/facets` })).json<FacetList>();
    const matrix = facets.facets.find((f) => f.facet === 'matrix')!;
    expect(matrix.unknown).toBe(0);
    const all = matrix.values.map((v) => v.value).join(',');
    const res = await metasOf(altId, `?facet.matrix=${all}`);
    const body = res.json<{
      metas: {
        matrix_id: number | null;
        matrix_consolidation_id: number | null;
        var_type: string;
        median: number;
        lower: number;
        upper: number;
        number_used: number;
        method: string;
        datasets: { bv_specification_id: number; weight: number }[];
      }[];
      facets: unknown;
    }>();
    const faceted = FacetAnswerSchema.parse(body.facets);
    expect(body.metas.length).toBeGreaterThan(0);
    for (const g of body.metas) {
      const f = faceted.metas.find(
        (m) =>
          m.matrix_id === g.matrix_id &&
          m.matrix_consolidation_id === g.matrix_consolidation_id &&
          m.var_type === g.var_type,
      )!;
      expect(f, `${g.matrix_id} ${g.var_type}`).toBeDefined();
      expect([f.median, f.lower, f.upper, f.number_used, f.method]).toEqual([
        g.median,
        g.lower,
        g.upper,
        g.number_used,
        g.method,
      ]);
      expect(f.datasets.map((d) => [d.bv_specification_id, d.weight]).sort()).toEqual(
        g.datasets.map((d) => [d.bv_specification_id, d.weight]).sort(),
      );
    }
  });

  it('never writes: the global estimates are identical before and after facet queries', async () => {
    const stored = () => ctx.database.db.select().from(metaCalculations).orderBy(metaCalculations.id);
    const rowsBefore = await stored();
    const before = (await metasOf(cholId)).body;
    for (const q of [
      '?facet.state=athletes',
      '?facet.state=athletes,healthy',
      '?facet.sex=males',
      '?facet.age=elderly&facet.state=healthy',
    ]) {
      expect((await metasOf(cholId, q)).statusCode).toBe(200);
    }
    expect((await metasOf(cholId)).body).toBe(before);
    expect(JSON.stringify(await stored())).toBe(JSON.stringify(rowsBefore));
    expect(JSON.parse(before)).not.toHaveProperty('facets');
  });

  it("recomputes on the matching datasets only, with the engine, each estimate the engine's on its datasets", async () => {
    const f = await facetAnswer(cholId, '?facet.state=athletes&facet.matrix=serum');
    const cvi = f.metas.find((m) => m.var_type === ':cvi' && m.matrix_id === 1)!;
    expect(cvi.datasets.every((d) => athletes.includes(d.bv_specification_id))).toBe(true);
    expect(cvi.number_used).toBe(new Set(cvi.datasets.map((d) => d.study_id)).size);
    const again = metaAnalyse(
      cvi.datasets.map((d) => ({
        id: d.study_id,
        include: true,
        score: d.grade as 'A' | 'B' | 'C',
        cv: d.cv,
        ciLower: d.ci_lower,
        ciUpper: d.ci_upper,
      })),
    );
    expect([cvi.median, cvi.lower, cvi.upper]).toEqual([
      again.weightedMedian,
      again.rangeLower,
      again.rangeUpper,
    ]);
    expect(f.key).toBe('state=athletes&matrix=serum');
  });

  it('tests whether two values differ, with the p-value and a plain sentence', async () => {
    const f = await facetAnswer(cholId, '?facet.state=healthy,athletes&facet.matrix=serum');
    const c = f.comparisons.find((x) => x.var_type === ':cvi' && x.matrix === 'Serum')!;
    expect(c).toBeDefined();
    expect([c.a.value, c.b.value]).toEqual(['athletes', 'healthy']);
    expect(c.a.median).toBeGreaterThan(c.b.median);
    expect(c.p).toBeLessThan(0.05);
    expect(c.sentence).toMatch(
      /^Athletes' CVI of Cholesterol \(total\) is higher than Healthy's: \d+\.\d % vs \d+\.\d %, p /,
    );
    // The same test as the domain's on the two subsets' studies.
    const studies = async (value: string) =>
      (await facetAnswer(cholId, `?facet.state=${value}&facet.matrix=serum`)).metas.find(
        (m) => m.var_type === ':cvi' && m.matrix_id === 1,
      )!;
    const [a, b] = [await studies('athletes'), await studies('healthy')];
    expect(c.a.number_used).toBe(a.number_used);
    expect(c.b.number_used).toBe(b.number_used);
    const collapse = (m: typeof a, group: string) => {
      const r = metaAnalyse(
        m.datasets.map((d) => ({
          id: d.study_id,
          include: true,
          score: d.grade as 'A',
          cv: d.cv,
          ciLower: d.ci_lower,
          ciUpper: d.ci_upper,
        })),
      );
      return r.studies.map((s) => ({ group, cv: s.cv, ciLower: s.ciLower, ciUpper: s.ciUpper }));
    };
    expect(c.q).toBe(subgroupTest([...collapse(a, 'athletes'), ...collapse(b, 'healthy')])!.qm);
  });

  it('labels a single study and says when none matches', async () => {
    const one = await facetAnswer(
      cholId,
      '?facet.ethnicity=american-indian-or-alaska-native&facet.state=athletes',
    );
    const cvi = one.metas.find((m) => m.var_type === ':cvi' && m.matrix_id === 1)!;
    expect(cvi.number_used).toBe(1);
    expect(cvi.method).toBe('single');
    expect(cvi.limits).toBe('95 % CI');
    expect(cvi.note).toBe('One study: its own estimate and CI');
    expect(cvi.datasets.map((d) => d.bv_specification_id)).toEqual([athletes[0]]);
    const many = await facetAnswer(cholId, '?facet.state=healthy');
    for (const m of many.metas.filter((x) => x.number_used > 1)) expect(m.note).toBeNull();
    // Without the state facet the rule "a healthy population" reads the dataset's flag: it stays out.
    const unflagged = await facetAnswer(cholId, '?facet.ethnicity=american-indian-or-alaska-native');
    expect(unflagged.datasets).toBe(1);
    expect(unflagged.note).toBe('No study matches these facets');
    const none = await facetAnswer(cholId, '?facet.state=pregnant&facet.sex=males');
    expect(none.metas).toEqual([]);
    expect(none.note).toBe('No study matches these facets');
  });

  it('is 400 for an unknown facet value, naming the allowed ones', async () => {
    const res = await metasOf(cholId, '?facet.sex=men');
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toContain('allowed: males, females, mixed');
    const state = await metasOf(cholId, '?facet.state=astronauts');
    expect(state.statusCode).toBe(400);
    // Every state of well-being is allowed, with datasets or not.
    expect(state.json<{ message: string }>().message).toContain(
      'allowed: healthy, non-healthy, pregnant, athletes',
    );
  });

  it('keeps one answer per facet set, whatever the order its values were given in', async () => {
    const a = await metasOf(cholId, '?facet.state=healthy,athletes&facet.matrix=serum');
    const b = await metasOf(cholId, '?facet.matrix=serum&facet.state=athletes&facet.state=healthy');
    expect(a.statusCode).toBe(200);
    expect(b.headers.etag).toBe(a.headers.etag);
    expect(b.body).toBe(a.body);
  });
});

describe('evidence classes (issue 47.4, decision 099)', () => {
  interface V1Metas {
    metas: {
      var_type: string;
      matrix_id: number | null;
      limits: string | null;
      evidence: { class: string; label: string };
      datasets: { bv_specification_id: number }[];
    }[];
  }
  const evidenceCounts = async () => {
    const body = (await ctx.app.inject({ url: `/api/v1/measurands/${cholId}/facets` })).json<FacetList>();
    const facet = body.facets.find((f) => f.facet === 'evidence')!;
    return Object.fromEntries(facet.values.map((v) => [v.value, v.datasets]));
  };

  it('counts every dataset as a direct ANOVA study until one is entered otherwise', async () => {
    const body = (await ctx.app.inject({ url: `/api/v1/measurands/${cholId}/facets` })).json<FacetList>();
    expect(await evidenceCounts()).toEqual({
      'direct-anova': body.datasets,
      'direct-bayesian': 0,
      indirect: 0,
    });
    const global = (await metasOf(cholId)).json<V1Metas>();
    for (const m of global.metas)
      expect(m.evidence.class).toBe(m.limits === 'range' ? 'range' : 'direct-anova');
  });

  it('a Bayesian dataset leaves the global estimate, and facet.evidence recomputes from it alone', async () => {
    const bayesian = healthy;
    const usedGlobally = async () => {
      await ctx.app.deps.recompute.settle();
      const global = (await metasOf(cholId)).json<V1Metas>();
      return global.metas.flatMap((m) => m.datasets.map((d) => d.bv_specification_id));
    };
    for (const id of bayesian) await editDataset(ctx.app, id, { evidence_class: 'direct-bayesian' });
    try {
      const stored = await ctx.app.inject({ url: `/api/bv_specifications/${bayesian[0]}` });
      expect(stored.json<{ dataset: { evidence_class: string } }>().dataset.evidence_class).toBe(
        'direct-bayesian',
      );
      expect(await evidenceCounts()).toMatchObject({ 'direct-bayesian': bayesian.length, indirect: 0 });

      // The global estimate keeps today's rule: direct ANOVA studies only.
      expect((await usedGlobally()).filter((id) => bayesian.includes(id))).toEqual([]);

      const answer = await facetAnswer(cholId, '?facet.evidence=direct-bayesian');
      const serumCvi = answer.metas.find((m) => m.var_type === ':cvi' && m.matrix_id === 1)!;
      expect(serumCvi.datasets.map((d) => d.bv_specification_id).sort()).toEqual(
        [...bayesian].sort((a, b) => a - b),
      );
      expect(serumCvi.evidence.class).toBe(serumCvi.limits === 'range' ? 'range' : 'direct-bayesian');
      // Both classes and both populations chosen: studies of two classes (a range for six studies).
      const both = await facetAnswer(
        cholId,
        '?facet.evidence=direct-anova,direct-bayesian&facet.state=athletes,healthy',
      );
      const mixed = both.metas.find((m) => m.var_type === ':cvi' && m.matrix_id === 1)!;
      expect(mixed.datasets.some((d) => athletes.includes(d.bv_specification_id))).toBe(true);
      expect(mixed.datasets.some((d) => bayesian.includes(d.bv_specification_id))).toBe(true);
      expect(mixed.evidence.class).toBe(mixed.limits === 'range' ? 'range' : 'mixed');
    } finally {
      for (const id of bayesian) await editDataset(ctx.app, id, { evidence_class: 'direct-anova' });
    }
    // Direct ANOVA again: they are back in the global estimate (the rule, not the data, left them out).
    expect((await usedGlobally()).some((id) => bayesian.includes(id))).toBe(true);
  });

  it('an unknown class is a 400 naming the allowed ones', async () => {
    const res = await metasOf(cholId, '?facet.evidence=bayes');
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toContain('direct-anova, direct-bayesian, indirect');
  });
});
