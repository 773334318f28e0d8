import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bvSpecifications } from '../../db/schema.js';
import { signInAs } from '../../test/sign-in.js';
import { useTestApp } from '../../test/test-app.js';

const ctx = useTestApp();

describe('curators see unpublished datasets; the public does not', () => {
  it('manage_by_analyte and manage_by_reference list unpublished datasets to a signed-in user only', async () => {
    const [spec] = await ctx.database.db
      .select()
      .from(bvSpecifications)
      .where(eq(bvSpecifications.uniqueIdentifier, 'DEMO-003'));
    await ctx.database.db
      .update(bvSpecifications)
      .set({ published: false })
      .where(eq(bvSpecifications.id, spec!.id));
    ctx.app.deps.cache.invalidate();
    const s = await signInAs(ctx.app);
    const anon = await ctx.app.inject({
      url: `/api/bv_specifications/manage_by_analyte?id=${spec!.analyteId}`,
    });
    expect(anon.statusCode).toBe(401);
    const byAnalyte = await ctx.app.inject({
      url: `/api/bv_specifications/manage_by_analyte?id=${spec!.analyteId}`,
      headers: { cookie: s.cookie },
    });
    expect(byAnalyte.json<{ dataset: { id: number }[] }>().dataset.map((d) => d.id)).toContain(spec!.id);
    const byRef = await ctx.app.inject({
      url: `/api/bv_specifications/manage_by_reference?id=${spec!.referenceId}`,
      headers: { cookie: s.cookie },
    });
    expect(byRef.json<{ dataset: { id: number }[]; export_url: string }>()).toMatchObject({
      export_url: `/export_by_reference/${spec!.referenceId}.xlsx`,
    });
    const publicList = await ctx.app.inject({ url: `/api/analyte_specifications/${spec!.analyteId}` });
    expect(publicList.json<{ id: number }[]>().map((d) => d.id)).not.toContain(spec!.id);
    const publicOne = await ctx.app.inject({ url: `/api/bv_specifications/${spec!.id}` });
    expect(publicOne.statusCode).toBe(404);
    const signedOne = await ctx.app.inject({
      url: `/api/bv_specifications/${spec!.id}`,
      headers: { cookie: s.cookie },
    });
    expect(signedOne.statusCode).toBe(200);
    expect(
      (
        await ctx.app.inject({
          url: '/api/bv_specifications/manage_by_analyte?id=999999',
          headers: { cookie: s.cookie },
        })
      ).statusCode,
    ).toBe(404);
  });

  it('GET /api/lookups and the datasets of a reference', async () => {
    const lookups = (await ctx.app.inject({ url: '/api/lookups' })).json<Record<string, unknown[]>>();
    expect(lookups.matrices).toHaveLength(23);
    expect(lookups.ethnicities).toHaveLength(8);
    expect(lookups.units!.length).toBeGreaterThan(5);
    const ofRef = await ctx.app.inject({ url: '/api/references/1/bv_specifications' });
    expect(ofRef.json<{ datasets: { reference_id: number }[]; export_url: string }>()).toMatchObject({
      export_url: '/export_by_reference/1.xlsx',
    });
    expect((await ctx.app.inject({ url: '/api/references/999999/bv_specifications' })).statusCode).toBe(404);
  });
});
