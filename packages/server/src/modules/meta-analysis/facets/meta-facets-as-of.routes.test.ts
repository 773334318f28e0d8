import { FacetAnswerSchema } from '@bvdb/contract';
import { describe, expect, it } from 'vitest';
import { editDataset, usedDataset as usedDatasetOf } from '../../../test/edit-dataset.js';
import { useTestApp } from '../../../test/test-app.js';

// Population facets with a pinned moment and their permalink (issue 47.1, decision 097).
const ctx = useTestApp();

interface Meta {
  matrix_id: number | null;
  matrix_consolidation_id: number | null;
  var_type: string;
  median: number;
  lower: number;
  upper: number;
  number_used: number;
  method: string;
  datasets: { bv_specification_id: number; cv: number; weight: number }[];
}
interface Answer {
  as_of: string | null;
  metas: Meta[];
  facets?: unknown;
}

const get = async (url: string) => {
  const res = await ctx.app.inject({ url });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Answer>();
};
const usedDataset = () => usedDatasetOf(ctx.database);
const facetsOf = (a: Answer) => FacetAnswerSchema.parse(a.facets);
type Group = Pick<Meta, 'matrix_id' | 'matrix_consolidation_id' | 'var_type'>;
const sameGroup = (a: Group) => (b: Group) =>
  a.matrix_id === b.matrix_id &&
  a.matrix_consolidation_id === b.matrix_consolidation_id &&
  a.var_type === b.var_type;

/** The facet values that select every dataset of a measurand: its matrices (each dataset has one). */
async function everyMatrix(analyteId: number) {
  const res = await ctx.app.inject({ url: `/api/v1/measurands/${analyteId}/facets` });
  const matrix = res
    .json<{ facets: { facet: string; values: { value: string }[]; unknown: number }[] }>()
    .facets.find((f) => f.facet === 'matrix')!;
  expect(matrix.unknown).toBe(0);
  return matrix.values.map((v) => v.value).join(',');
}

describe('GET /api/v1/measurands/{id}/metas?facet.…&as_of=…', () => {
  it('recomputes the facet estimates from the datasets as they were then; today answers today', async () => {
    const { specId, cv, analyteId } = await usedDataset();
    const all = await everyMatrix(analyteId);
    const then = new Date().toISOString();
    const beforeEdit = facetsOf(await get(`/api/v1/measurands/${analyteId}/metas?facet.matrix=${all}`));

    await editDataset(ctx.app, specId, { estimates_of_cvi: cv + 7.5 });
    await ctx.app.deps.recompute.settle();

    const past = await get(
      `/api/v1/measurands/${analyteId}/metas?facet.matrix=${all}&as_of=${encodeURIComponent(then)}`,
    );
    expect(past.as_of).toBe(then);
    const pastFacets = facetsOf(past);
    // Facets selecting every dataset, as of then: the global estimates as of then, exactly.
    expect(past.metas.length).toBeGreaterThan(0);
    for (const g of past.metas) {
      const f = pastFacets.metas.find(sameGroup(g));
      expect(f, `${g.matrix_id} ${g.var_type}`).toBeDefined();
      expect([f!.median, f!.lower, f!.upper, f!.number_used, f!.method]).toEqual([
        g.median,
        g.lower,
        g.upper,
        g.number_used,
        g.method,
      ]);
      expect(f!.datasets.map((d) => [d.bv_specification_id, d.cv, d.weight]).sort()).toEqual(
        g.datasets.map((d) => [d.bv_specification_id, d.cv, d.weight]).sort(),
      );
    }
    // …and the values the facet answer gave before the edit, the edited dataset's old CV among them.
    const edited = pastFacets.metas.find((m) => m.datasets.some((d) => d.bv_specification_id === specId))!;
    expect(edited.datasets.find((d) => d.bv_specification_id === specId)!.cv).toBe(cv);
    const was = beforeEdit.metas.find(sameGroup(edited))!;
    expect([edited.median, edited.lower, edited.upper]).toEqual([was.median, was.lower, was.upper]);

    // Today's facet answer has the new value.
    const now = facetsOf(await get(`/api/v1/measurands/${analyteId}/metas?facet.matrix=${all}`));
    const current = now.metas.find(sameGroup(edited))!;
    expect(current.datasets.find((d) => d.bv_specification_id === specId)!.cv).toBe(cv + 7.5);
  });

  it('answers "no study" as of a moment when no dataset then matches, and 404 before the history starts', async () => {
    const { analyteId } = await usedDataset();
    const noMatch = facetsOf(
      await get(
        `/api/v1/measurands/${analyteId}/metas?facet.state=pregnant&as_of=${encodeURIComponent(new Date().toISOString())}`,
      ),
    );
    expect(noMatch.metas).toEqual([]);
    expect(noMatch.note).toBe('No study matches these facets');
    const early = await ctx.app.inject({
      url: `/api/v1/measurands/${analyteId}/metas?facet.sex=mixed&as_of=2000-01-01`,
    });
    expect(early.statusCode).toBe(404);
    // An unknown value is still a 400 naming the allowed ones.
    const bad = await ctx.app.inject({
      url: `/api/v1/measurands/${analyteId}/metas?facet.sex=men&as_of=2030-01-01`,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ message: string }>().message).toContain('allowed: males, females, mixed');
  });

  it('names its permalink: the measurand page with the facets in canonical order, and the moment', async () => {
    const { analyteId } = await usedDataset();
    const now = facetsOf(
      await get(`/api/v1/measurands/${analyteId}/metas?facet.matrix=serum&facet.sex=mixed,males`),
    );
    expect(now.permalink).toBe(`/analytes/${analyteId}?facet.sex=males,mixed&facet.matrix=serum`);
    const day = await get(`/api/v1/measurands/${analyteId}/metas?facet.sex=mixed&as_of=2030-01-31`);
    expect(facetsOf(day).permalink).toBe(
      `/analytes/${analyteId}?facet.sex=mixed&as_of=${encodeURIComponent('2030-01-31T23:59:59.999Z')}`,
    );
  });
});
