import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { references } from '../../db/schema.js';
import { useTestApp } from '../../test/test-app.js';

const ctx = useTestApp();

describe('GET /api/references', () => {
  it('without page: every reference with a dropdown label', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/references/' });
    expect(res.statusCode).toBe(200);
    const refs = res.json<{ references: { id: number; label: string; title: string }[] }>().references;
    expect(refs.length).toBeGreaterThanOrEqual(112);
    expect(refs[0]!.label).toContain(refs[0]!.title);
  });

  it('references with datasets open the list; one without a dataset or a year closes it (decision 023)', async () => {
    const [lonely] = await ctx.database.db
      .insert(references)
      .values({ title: 'A reference no dataset uses', author: null, yearOfPublication: null })
      .returning();
    ctx.app.deps.cache.invalidate();
    try {
      const res = await ctx.app.inject({ method: 'GET', url: '/api/references/' });
      const refs = res.json<{
        references: { id: number; label: string; bv_specifications_count: number }[];
      }>().references;
      const firstUnused = refs.findIndex((r) => r.bv_specifications_count === 0);
      expect(firstUnused).toBeGreaterThan(0);
      expect(refs.slice(firstUnused).every((r) => r.bv_specifications_count === 0)).toBe(true);
      const mine = refs.find((r) => r.id === lonely!.id)!;
      // The dropdown label leaves out what is missing.
      expect(mine.label).toBe('A reference no dataset uses');
      expect(refs.map((r) => r.label).join('\n')).not.toMatch(/Unknown Author|n\.d\./);

      const first = await ctx.app.inject({ method: 'GET', url: '/api/references/?page=1' });
      const page = first.json<{ data: { bv_specifications_count: number }[] }>().data;
      expect(page.every((r) => r.bv_specifications_count > 0)).toBe(true);
    } finally {
      await ctx.database.db.delete(references).where(eq(references.id, lonely!.id));
      ctx.app.deps.cache.invalidate();
    }
  });

  it('with page and search: one page and its pagination metadata', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/references/?page=2' });
    const body = res.json<{ data: unknown[]; meta: { pagination: Record<string, number | null> } }>();
    expect(body.data).toHaveLength(10);
    const p = body.meta.pagination;
    expect(p).toMatchObject({ page: 2, prev: 1, next: 3, from: 11, to: 20 });
    expect(p.pages).toBe(Math.ceil(p.count! / 10));

    const search = await ctx.app.inject({ method: 'GET', url: '/api/references?page=1&search=EuBIVAS' });
    const found = search.json<{ data: { title: string }[]; meta: { pagination: { count: number } } }>();
    expect(found.meta.pagination.count).toBeGreaterThan(0);
    expect(found.data.every((r) => /eubivas/i.test(r.title))).toBe(true);

    const none = await ctx.app.inject({ method: 'GET', url: '/api/references?page=1&search=zzzz-no-such' });
    expect(none.json<{ data: unknown[]; meta: { pagination: Record<string, unknown> } }>()).toMatchObject({
      data: [],
      meta: { pagination: { count: 0, page: 1, pages: 1, next: null, prev: null, from: 0, to: 0 } },
    });
  });

  it('treats a search with SQL wildcards literally', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/references?page=1&search=%25' });
    expect(res.json<{ meta: { pagination: { count: number } } }>().meta.pagination.count).toBe(0);
  });

  it('rejects page=0 with 400', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/references?page=0' });
    expect(res.statusCode).toBe(400);
  });

  it('GET /api/references/{id}: the reference, and 404 JSON for an unknown id', async () => {
    const ok = await ctx.app.inject({ method: 'GET', url: '/api/references/1' });
    expect(ok.json<{ reference: { id: number } }>().reference.id).toBe(1);
    const missing = await ctx.app.inject({ method: 'GET', url: '/api/references/424242' });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['content-type']).toMatch(/json/);
    const bad = await ctx.app.inject({ method: 'GET', url: '/api/references/abc' });
    expect(bad.statusCode).toBe(400);
  });
});
