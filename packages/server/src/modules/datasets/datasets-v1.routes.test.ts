import { DatasetSchema, V1MeasurandSchema } from '@bvdb/contract';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/test-app.js';

const ctx = useTestApp();
const get = (url: string, headers: Record<string, string> = {}) => ctx.app.inject({ url, headers });
interface Page<T> {
  meta: { total: number; limit: number; offset: number; next_offset: number | null };
  data: T[];
}

describe('/api/v1 datasets', () => {
  it('pages in id order with totals and next_offset, to an empty page past the end', async () => {
    const ids: number[] = [];
    let next: number | null = 0;
    let total = 0;
    while (next !== null) {
      const page: Page<{ id: number }> = (await get(`/api/v1/datasets?limit=37&offset=${next}`)).json();
      total = page.meta.total;
      ids.push(...page.data.map((d) => DatasetSchema.parse(d).id));
      next = page.meta.next_offset;
    }
    expect(ids).toHaveLength(total);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    const past: Page<unknown> = (await get(`/api/v1/datasets?offset=${total + 5}`)).json();
    expect(past.data).toEqual([]);
    expect(past.meta.next_offset).toBeNull();

    const bulk = (await get('/api/v1/bulk/datasets')).json<{ data: { id: number }[]; total: number }>();
    expect(bulk.data.map((d) => d.id)).toEqual(ids);
    expect(bulk.total).toBe(total);
  });

  it('reads one dataset, 404s an unknown id, and answers 304 to a matching If-None-Match', async () => {
    const first: Page<{ id: number }> = (await get('/api/v1/datasets?limit=1')).json();
    const id = first.data[0]!.id;
    const one = await get(`/api/v1/datasets/${id}`);
    expect(one.json<{ data: { id: number } }>().data.id).toBe(id);
    const etag = one.headers.etag as string;
    expect((await get(`/api/v1/datasets/${id}`, { 'if-none-match': etag })).statusCode).toBe(304);
    expect((await get('/api/v1/datasets/99999999')).statusCode).toBe(404);
    // A public record is its page fragment in `{"data":…}` (decision 089): the same bytes as the
    // page's item, and the same JSON as the serialiser's.
    const page = (await get('/api/v1/datasets?limit=1')).body;
    const item = page.slice(page.indexOf('"data":[') + 8, -2);
    expect(one.body).toBe(`{"data":${item}}`);
    expect(one.body).toBe(JSON.stringify({ data: DatasetSchema.parse(JSON.parse(item)) }));
    const bulk = await get('/api/v1/bulk/datasets');
    expect(
      (await get('/api/v1/bulk/datasets', { 'if-none-match': bulk.headers.etag as string })).statusCode,
    ).toBe(304);
  });

  it('filters by updated_since', async () => {
    const all: Page<{ updated_at: string }> = (await get('/api/v1/datasets?limit=1000')).json();
    const newest = all.data
      .map((d) => d.updated_at)
      .sort()
      .at(-1)!;
    const since: Page<{ updated_at: string }> = (
      await get(`/api/v1/datasets?limit=1000&updated_since=${encodeURIComponent(newest)}`)
    ).json();
    expect(since.data.length).toBeGreaterThan(0);
    expect(since.data.every((d) => d.updated_at >= newest)).toBe(true);
    const none: Page<unknown> = (await get('/api/v1/datasets?updated_since=2999-01-01T00:00:00Z')).json();
    expect(none.meta.total).toBe(0);
  });
});

describe('/api/v1 measurands and metas', () => {
  it('measurands carry the headline of /api/measurands; metas of one measurand include it', async () => {
    const page: Page<unknown> = (await get('/api/v1/measurands?limit=1000')).json();
    const legacy = (await get('/api/measurands')).json<{
      data: { analyte: { id: number }; metas: { matrix: { matrix_expansion: string } }[] }[];
    }>();
    const measurands = page.data.map((m) => V1MeasurandSchema.parse(m));
    expect(measurands.map((m) => m.id)).toEqual(legacy.data.map((e) => e.analyte.id).sort((a, b) => a - b));
    for (const m of measurands.slice(0, 5)) {
      const entry = legacy.data.find((e) => e.analyte.id === m.id)!;
      expect(m.headline!.matrix).toBe(entry.metas[0]!.matrix.matrix_expansion);
      const of = (await get(`/api/v1/measurands/${m.id}/metas`)).json<{
        headline: unknown;
        metas: { id: number }[];
      }>();
      expect(of.headline).toEqual(m.headline);
      if (m.headline!.cvi) expect(of.metas.map((x) => x.id)).toContain(m.headline!.cvi.meta_id);
    }
    expect((await get('/api/v1/measurands/99999999/metas')).statusCode).toBe(404);
  });

  it('lists every displayed result page by page', async () => {
    const first: Page<{ id: number }> = (await get('/api/v1/metas?limit=10')).json();
    const all: Page<{ id: number }> = (await get('/api/v1/metas?limit=1000')).json();
    expect(all.data.slice(0, 10)).toEqual(first.data);
    expect(all.meta.total).toBe(all.data.length);
    expect(first.meta.next_offset).toBe(10);
  });

  it.each([
    '/api/v1/datasets?limit=0',
    '/api/v1/datasets?limit=1001',
    '/api/v1/datasets?limit=x',
    '/api/v1/datasets?offset=-1',
    '/api/v1/datasets?updated_since=today',
    '/api/v1/measurands?limit=-5',
    '/api/v1/metas?offset=abc',
    '/api/v1/datasets/abc',
  ])('400 with a message for %s', async (url) => {
    const res = await get(url);
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toBeTruthy();
  });
});
