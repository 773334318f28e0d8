import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatasetSchema } from '@bvdb/contract';
import { bvSpecifications, references } from '../../db/schema.js';
import { createTestApp, type TestContext } from '../../test/test-app.js';
import { signInAs } from '../../test/sign-in.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
  // One unpublished dataset: anonymous callers must never see it.
  await ctx.database.db
    .update(bvSpecifications)
    .set({ published: false })
    .where(eq(bvSpecifications.uniqueIdentifier, 'DEMO-001'));
});
afterAll(async () => ctx.close());

describe('GET /api/bv_specifications', () => {
  it('lists the published datasets with their flattened reference and analyte fields', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/bv_specifications' });
    expect(res.statusCode).toBe(200);
    const body = res.json<{ code: string; datasets: unknown[]; total: number }>();
    expect(body.code).toBe('success');
    const [published] = await ctx.database.db
      .select({ n: count() })
      .from(bvSpecifications)
      .where(eq(bvSpecifications.published, true));
    expect(body.datasets).toHaveLength(published!.n);
    expect(body.total).toBe(published!.n);
    const d = DatasetSchema.parse(body.datasets[0]);
    expect(d.reference_title).toBe(d.reference.title);
    expect(d.analyte_display_name).toBe(d.analyte.display_name);
    expect(
      body.datasets.some((x) => (x as { unique_identifier: string }).unique_identifier === 'DEMO-001'),
    ).toBe(false);
  });

  it('answers 304 to a client that already has the current version', async () => {
    const first = await ctx.app.inject({ method: 'GET', url: '/api/bv_specifications' });
    const etag = first.headers.etag as string;
    expect(etag).toBeTruthy();
    const again = await ctx.app.inject({
      method: 'GET',
      url: '/api/bv_specifications',
      headers: { 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
  });

  it('pages with limit and offset (the paged form, in the id order of the unpaged list)', async () => {
    const all = (await ctx.app.inject({ method: 'GET', url: '/api/bv_specifications' })).json<{
      datasets: { id: number }[];
    }>();
    const page = (
      await ctx.app.inject({ method: 'GET', url: '/api/bv_specifications?limit=5&offset=5' })
    ).json<{ meta: { total: number }; data: { id: number }[] }>();
    expect(page.data.map((d) => d.id)).toEqual(all.datasets.slice(5, 10).map((d) => d.id));
    expect(page.meta.total).toBe(all.datasets.length);
  });

  it('rejects a bad limit with 400 and a message', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/bv_specifications?limit=abc' });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toMatch(/limit/);
  });
});

describe('GET /api/bv_specifications/{id}', () => {
  it("sends a public record as its kept fragment and estimates: the serialiser's bytes (decision 104)", async () => {
    const [spec] = await ctx.database.db
      .select({ id: bvSpecifications.id })
      .from(bvSpecifications)
      .where(eq(bvSpecifications.uniqueIdentifier, 'DEMO-003'));
    const url = `/api/bv_specifications/${spec!.id}`;
    const anonymous = await ctx.app.inject({ method: 'GET', url });
    expect(anonymous.statusCode).toBe(200);
    // A signed-in reader's answer is presented and written by the route's serialiser, never kept.
    const staff = await signInAs(ctx.app);
    const serialised = await ctx.app.inject({ method: 'GET', url, headers: { cookie: staff.cookie } });
    expect(serialised.statusCode).toBe(200);
    expect(anonymous.body).toBe(serialised.body);
    const parsed = anonymous.json<{ dataset: Record<string, unknown>; bv_estimates: unknown[] }>();
    expect(Object.keys(parsed)).toEqual(['dataset', 'bv_estimates']);
    expect(parsed.bv_estimates.length).toBeGreaterThan(0);
    // The page's item of the same row is the same dataset JSON.
    const v1 = await ctx.app.inject({ method: 'GET', url: `/api/v1/datasets/${spec!.id}` });
    expect(
      anonymous.body.startsWith(`{"dataset":${v1.body.slice('{"data":'.length, -1)},"bv_estimates":[`),
    ).toBe(true);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/bv_specifications/99999999' })).statusCode).toBe(
      404,
    );
  });
});

describe('dataset defaults', () => {
  it('fills a missing reference title, author, journal, volume and pages with the defaults of the spec', async () => {
    const [ref] = await ctx.database.db
      .insert(references)
      .values({ title: '', author: null, journal: null, volume: null, pages: null })
      .returning();
    const [spec] = await ctx.database.db
      .select()
      .from(bvSpecifications)
      .where(eq(bvSpecifications.uniqueIdentifier, 'DEMO-002'));
    await ctx.database.db
      .update(bvSpecifications)
      .set({ referenceId: ref!.id })
      .where(eq(bvSpecifications.id, spec!.id));
    ctx.app.deps.cache.invalidate();
    const res = await ctx.app.inject({ method: 'GET', url: `/api/bv_specifications/${spec!.id}` });
    const d = res.json<{ dataset: Record<string, unknown> }>().dataset;
    expect(d).toMatchObject({
      reference_title: 'Unknown Title',
      reference_author: 'Unknown Author',
      reference_journal: 'Unknown Journal',
      reference_volume: 0,
      reference_pages: 'N/A',
    });
  });
});

describe('datasets by measurand', () => {
  it('groups datasets by measurand display name in both legacy paths', async () => {
    for (const url of ['/api/bv_specifications/by_measurand', '/api/bv_specifications/specs_for_analytes/']) {
      const res = await ctx.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      const groups = res.json<{ datasets: Record<string, { analyte_display_name: string }[]> }>().datasets;
      expect(Object.keys(groups).length).toBeGreaterThan(50);
      for (const [name, list] of Object.entries(groups)) {
        for (const d of list) expect(d.analyte_display_name).toBe(name);
      }
    }
  });

  it("lists one measurand's datasets and 404s an unknown measurand", async () => {
    const list = (await ctx.app.inject({ method: 'GET', url: '/api/analytes_with_bv_specifications' })).json<{
      analytes: { id: number; display_name: string; bv_specifications_count: number }[];
    }>().analytes;
    const creat = list.find((a) => a.display_name === 'Creatinine')!;
    const res = await ctx.app.inject({ method: 'GET', url: `/api/analyte_specifications/${creat.id}` });
    expect(res.statusCode).toBe(200);
    const datasets = res.json<{ analyte_id: number }[]>();
    expect(datasets).toHaveLength(creat.bv_specifications_count);
    expect(datasets.every((d) => d.analyte_id === creat.id)).toBe(true);
    const missing = await ctx.app.inject({ method: 'GET', url: '/api/analyte_specifications/999999' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json<{ message: string }>().message).toMatch(/not found/);
  });
});
