import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { metaCalculationDatasets, metaCalculations } from '../../db/schema.js';
import { editDataset, usedDataset as usedDatasetOf } from '../../test/edit-dataset.js';
import { useTestApp } from '../../test/test-app.js';
import { countAllVersions } from './estimates.service.js';

// Runs on PGlite, and on PostgreSQL when TEST_DATABASE_URL names a server.
const ctx = useTestApp();

interface Version {
  version: number;
  withdrawn: boolean;
  median: number | null;
  limits: string | null;
  number_used: number;
  datasets: { id: number; value: number }[];
  computed_at: string;
  cause: { kind: string; dataset_id?: number; role: string };
}
interface History {
  estimate: { id: number; measurand_id: number; var_type: string };
  meta: { total: number; limit: number; offset: number; next_offset: number | null };
  data: Version[];
}
interface V1Metas {
  as_of: string | null;
  headline: { cvi: { estimate_id: number; version: number; median: number } | null } | null;
  metas: {
    id: number;
    estimate_id: number | null;
    version: number | null;
    matrix_id: number | null;
    var_type: string;
    median: number;
    datasets: { bv_specification_id: number; cv: number; reference_title: string }[];
  }[];
}

const get = (url: string) => ctx.app.inject({ url });
const history = async (id: number, q = '') =>
  (await get(`/api/v1/estimates/${id}/history${q}`)).json<History>();

const usedDataset = () => usedDatasetOf(ctx.database);
const editAsCurator = (id: number, change: Record<string, unknown>) => editDataset(ctx.app, id, change);

describe('estimates with a history (issue 29.3–4)', () => {
  it('every result of the v1 measurand answer carries its stable estimate id and version 1 (initial)', async () => {
    const { analyteId } = await usedDataset();
    const res = await get(`/api/v1/measurands/${analyteId}/metas`);
    expect(res.statusCode).toBe(200);
    const body = res.json<V1Metas>();
    expect(body.as_of).toBeNull();
    expect(body.metas.length).toBeGreaterThan(0);
    for (const m of body.metas) {
      expect(m.estimate_id).toEqual(expect.any(Number));
      expect(m.version).toBe(1);
      const h = await history(m.estimate_id!);
      expect(h.data).toHaveLength(1);
      expect(h.data[0]).toMatchObject({
        version: 1,
        withdrawn: false,
        cause: { kind: 'initial', role: 'system' },
      });
      expect(h.data[0]!.median).toBe(m.median);
      expect(h.data[0]!.datasets.map((d) => d.id)).toEqual(m.datasets.map((d) => d.bv_specification_id));
    }
    expect(body.headline?.cvi?.estimate_id).toEqual(expect.any(Number));
    expect(body.headline?.cvi?.version).toBe(1);
  });

  it('a recompute that gives the same numbers writes no version', async () => {
    const before = await countAllVersions(ctx.database.db);
    expect(before).toBeGreaterThan(20);
    await ctx.database.db.transaction((tx) =>
      ctx.app.deps.recompute.request(tx, { cause: { kind: 'lookup', role: 'curator' } }),
    );
    await ctx.app.deps.recompute.settle();
    expect(await countAllVersions(ctx.database.db)).toBe(before);
  });

  it('a curator changes a dataset: a new version with its cause by role, the id kept; as_of answers the past', async () => {
    const { specId, cv, analyteId, metaId } = await usedDataset();
    const answer = async (q = '') => (await get(`/api/v1/measurands/${analyteId}/metas${q}`)).json<V1Metas>();
    const before = (await answer()).metas.find((m) => m.id === metaId)!;
    const estimateId = before.estimate_id!;
    expect((await history(estimateId)).meta.total).toBe(1); // kept now: the write must invalidate it
    const versionsBefore = await countAllVersions(ctx.database.db);

    await editAsCurator(specId, { estimates_of_cvi: cv + 7.5 });
    // Until the worker ran, nothing moved.
    expect((await history(estimateId)).meta.total).toBe(1);
    await ctx.app.deps.recompute.settle();

    const h = await history(estimateId);
    expect(h.meta).toMatchObject({ total: 2, limit: 100, offset: 0, next_offset: null });
    expect(h.data.map((v) => v.version)).toEqual([2, 1]); // newest first
    const [latest, first] = h.data as [Version, Version];
    expect(latest.cause).toEqual({ kind: 'dataset', dataset_id: specId, role: 'curator' });
    expect(JSON.stringify(h)).not.toContain('Jane');
    expect(latest.datasets.find((d) => d.id === specId)!.value).toBe(cv + 7.5);
    expect(first.datasets.find((d) => d.id === specId)!.value).toBe(cv);
    expect(['ci', 'range']).toContain(latest.limits);
    // Only the estimates the dataset feeds got a version (CVI of its matrix, maybe a consolidation).
    const added = (await countAllVersions(ctx.database.db)) - versionsBefore;
    expect(added).toBeGreaterThanOrEqual(1);
    expect(added).toBeLessThanOrEqual(2);

    const now = await answer();
    const after = now.metas.find((m) => m.estimate_id === estimateId)!;
    expect(after).toMatchObject({ version: 2 });
    expect(after.datasets.find((d) => d.bv_specification_id === specId)!.cv).toBe(cv + 7.5);

    // Paging: one version a page.
    const p2 = await history(estimateId, '?limit=1&offset=1');
    expect(p2.meta).toMatchObject({ total: 2, limit: 1, offset: 1, next_offset: null });
    expect(p2.data.map((v) => v.version)).toEqual([1]);

    // as_of just before the change: version 1 as the site showed it; at the change: version 2.
    const justBefore = new Date(new Date(latest.computed_at).getTime() - 1).toISOString();
    const past = await answer(`?as_of=${encodeURIComponent(justBefore)}`);
    expect(past.as_of).toBe(justBefore);
    const pastMeta = past.metas.find((m) => m.estimate_id === estimateId)!;
    expect(pastMeta).toMatchObject({ version: 1, median: before.median });
    expect(pastMeta.datasets).toEqual(before.datasets);
    const at = await answer(`?as_of=${encodeURIComponent(latest.computed_at)}`);
    expect(at.metas.find((m) => m.estimate_id === estimateId)).toMatchObject({
      version: 2,
      median: after.median,
    });
    // The list too: at that moment every headline estimate was at version 1; before the history, none.
    const list = (await get(`/api/v1/measurands?limit=1000&as_of=${encodeURIComponent(justBefore)}`)).json<{
      meta: { total: number };
      data: { id: number; headline: { cvi: { version: number } | null; cvg: { version: number } | null } }[];
    }>();
    expect(list.meta.total).toBe(
      (await get('/api/v1/measurands?limit=1000')).json<{ meta: { total: number } }>().meta.total,
    );
    expect(list.data.find((m) => m.id === analyteId)).toBeDefined();
    for (const m of list.data) {
      for (const e of [m.headline.cvi, m.headline.cvg]) if (e) expect(e.version).toBe(1);
    }
    const none = (await get('/api/v1/measurands?as_of=2000-01-01')).json<{
      meta: { total: number };
      data: [];
    }>();
    expect(none).toMatchObject({ meta: { total: 0 }, data: [] });
    // A day: its end (UTC).
    const today = new Date().toISOString().slice(0, 10);
    expect((await answer(`?as_of=${today}`)).metas.find((m) => m.estimate_id === estimateId)?.version).toBe(
      2,
    );
  });

  it('as_of before the estimate existed is a 404 with a message; a bad date is a 400', async () => {
    const { analyteId } = await usedDataset();
    const early = await get(`/api/v1/measurands/${analyteId}/metas?as_of=2000-01-01`);
    expect(early.statusCode).toBe(404);
    expect(early.json<{ message: string }>().message).toMatch(/had no estimate on 2000-01-01/);
    for (const bad of ['yesterday', '2026-13-45', '2026-01-01T25:00:00Z']) {
      const res = await get(`/api/v1/measurands/${analyteId}/metas?as_of=${bad}`);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json<{ message: string }>().message).toMatch(/as_of/);
    }
  });

  it('an unknown estimate is a 404; a bad id or page a 400', async () => {
    expect((await get('/api/v1/estimates/999999/history')).statusCode).toBe(404);
    expect((await get('/api/v1/estimates/abc/history')).statusCode).toBe(400);
    expect((await get('/api/v1/estimates/1/history?limit=0')).statusCode).toBe(400);
  });

  it('an estimate whose datasets are excluded gets a withdrawn version, and comes back with a new one', async () => {
    const { specId, analyteId, metaId } = await usedDataset();
    const estimateId = (await get(`/api/v1/measurands/${analyteId}/metas`))
      .json<V1Metas>()
      .metas.find((m) => m.id === metaId)!.estimate_id!;
    const [meta] = await ctx.database.db
      .select()
      .from(metaCalculations)
      .where(eq(metaCalculations.id, metaId));
    const links = await ctx.database.db
      .select()
      .from(metaCalculationDatasets)
      .where(eq(metaCalculationDatasets.metaCalculationId, metaId));
    for (const l of links) await editAsCurator(l.bvSpecificationId, { include_in_meta_analysis: false });
    await ctx.app.deps.recompute.settle();
    const gone = await history(estimateId);
    expect(gone.data[0]).toMatchObject({ withdrawn: true, median: null, number_used: 0, datasets: [] });
    expect(meta).toBeDefined();
    await editAsCurator(specId, { include_in_meta_analysis: true });
    await ctx.app.deps.recompute.settle();
    const back = await history(estimateId);
    expect(back.data[0]).toMatchObject({ withdrawn: false, version: gone.data[0]!.version + 1 });
    expect(back.data[0]!.datasets.map((d) => d.id)).toEqual([specId]);
  });
});
