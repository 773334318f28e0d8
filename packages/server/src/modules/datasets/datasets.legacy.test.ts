import zlib from 'node:zlib';
import { formatCitation, QUALITY_ITEMS } from '@bvdb/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { bvSpecifications } from '../../db/schema.js';
import { signInAs } from '../../test/sign-in.js';
import { createTestApp, type TestContext } from '../../test/test-app.js';

/** The live shapes as consumers read them (issue 14), independent of the contract. */
const grade = z.enum(['A', 'B', 'C', 'D', 'NA']);
const livePage = z.object({
  meta: z.object({ total: z.number().int().nonnegative() }),
  data: z.array(
    z
      .object({
        id: z.number().int(),
        measurand: z.string(),
        reference: z.string(),
        grades: z.object(Object.fromEntries(QUALITY_ITEMS.map((q) => [q.key, grade]))).strict(),
        analyte_id: z.number().int(),
        reference_id: z.number().int(),
      })
      .loose(),
  ),
});
const liveUnpaged = z.object({
  code: z.literal('success'),
  datasets: z.array(
    z
      .object({
        id: z.number().int(),
        measurand: grade,
        analyte_display_name: z.string(),
        reference: z
          .object({
            author: z.string(),
            title: z.string(),
            journal: z.string(),
            year_of_publication: z.number().nullable(),
            volume: z.number(),
            pages: z.string(),
          })
          .loose(),
      })
      .loose(),
  ),
});
const liveOne = z.object({
  dataset: z.object({ id: z.number().int(), estimates_of_cvi: z.number().nullable() }).loose(),
  bv_estimates: z.array(
    z
      .object({
        within_subject_variation: z.number().nullable(),
        between_subject_variation: z.number().nullable(),
      })
      .loose(),
  ),
});

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
  await ctx.database.db
    .update(bvSpecifications)
    .set({ published: false })
    .where(eq(bvSpecifications.uniqueIdentifier, 'DEMO-003'));
});
afterAll(async () => ctx.close());
const get = (url: string, headers: Record<string, string> = {}) => ctx.app.inject({ url, headers });

describe('GET /api/bv_specifications?limit=&offset= (legacy paged form)', () => {
  it('has the live shape, and each field its live meaning', async () => {
    const unpaged = liveUnpaged.parse((await get('/api/bv_specifications')).json());
    const page = livePage.parse((await get('/api/bv_specifications?limit=50&offset=0')).json());
    expect(page.meta.total).toBe(unpaged.datasets.length);
    expect(page.data).toHaveLength(50);
    for (const item of page.data) {
      const full = unpaged.datasets.find((d) => d.id === item.id)!;
      // `measurand` is the NAME of the measurand here (the grade of item 4 in the unpaged form).
      expect(item.measurand).toBe(full.analyte_display_name);
      expect(item.measurand).not.toMatch(/^(A|B|C|D|NA)$/);
      expect(item.grades.measurand).toBe(full.measurand);
      for (const q of QUALITY_ITEMS) expect(item.grades[q.key]).toBe(full[q.key]);
      const r = full.reference;
      expect(item.reference).toBe(
        formatCitation({
          author: r.author,
          title: r.title,
          journal: r.journal,
          year: r.year_of_publication,
          volume: r.volume,
          pages: r.pages,
        }),
      );
      expect(item.reference).not.toMatch(/\.\.|;0:|N\/A|n\.d\./);
      expect(item.reference).toContain(r.title.replace(/\.$/, ''));
    }
  });

  it('the measurand name is the one /api/analytes/{id} gives', async () => {
    const page = livePage.parse((await get('/api/bv_specifications?limit=3')).json());
    for (const item of page.data) {
      const analyte = (await get(`/api/analytes/${item.analyte_id}`)).json<{
        analyte: { display_name: string };
      }>();
      expect(item.measurand).toBe(analyte.analyte.display_name);
    }
  });

  it('an offset past the end is an empty page with the same total; only offset pages by 100', async () => {
    const first = livePage.parse((await get('/api/bv_specifications?limit=1')).json());
    const past = livePage.parse(
      (await get(`/api/bv_specifications?limit=20&offset=${first.meta.total}`)).json(),
    );
    expect(past.data).toEqual([]);
    expect(past.meta.total).toBe(first.meta.total);
    const onlyOffset = livePage.parse((await get('/api/bv_specifications?offset=0')).json());
    expect(onlyOffset.data).toHaveLength(Math.min(100, first.meta.total));
  });

  it('never lists an unpublished dataset to anonymous callers', async () => {
    const page = livePage.parse((await get('/api/bv_specifications?limit=1000')).json());
    const unique = page.data.map((d) => (d as unknown as { unique_identifier: string }).unique_identifier);
    expect(unique).not.toContain('DEMO-003');
  });
});

describe('GET /api/bv_specifications (unpaged: the spec’s shape, streamed)', () => {
  it('keeps {code, datasets} with `measurand` the grade, in id order; signed-in callers see unpublished ones, uncached', async () => {
    const anon = liveUnpaged.parse((await get('/api/bv_specifications')).json());
    const ids = anon.datasets.map((d) => d.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    const s = await signInAs(ctx.app);
    const res = await get('/api/bv_specifications', s.headers);
    expect(res.headers['cache-control']).toBe('private, no-store');
    const mine = liveUnpaged.parse(res.json());
    expect(mine.datasets.length).toBe(anon.datasets.length + 1);
  });

  it('streams the unpaged list compressed (br or gzip) to the same JSON as uncompressed', async () => {
    const plain = await get('/api/bv_specifications');
    const gzip = await get('/api/bv_specifications', { 'accept-encoding': 'gzip' });
    const br = await get('/api/bv_specifications', { 'accept-encoding': 'br, gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(br.headers['content-encoding']).toBe('br');
    expect(zlib.gunzipSync(gzip.rawPayload).toString()).toBe(plain.body);
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
  });

  it('takes updated_since: a future instant lists nothing', async () => {
    const res = liveUnpaged.parse(
      (await get('/api/bv_specifications?updated_since=2999-01-01T00:00:00Z')).json(),
    );
    expect(res.datasets).toEqual([]);
  });
});

describe('GET /api/bv_specifications/{id} (legacy)', () => {
  it('adds bv_estimates with the dataset’s CVI and CVG under the live names', async () => {
    const page = livePage.parse((await get('/api/bv_specifications?limit=5')).json());
    for (const { id } of page.data) {
      const one = liveOne.parse((await get(`/api/bv_specifications/${id}`)).json());
      const d = one.dataset as unknown as {
        estimates_of_cvi: number | null;
        estimates_of_cvg: number | null;
      };
      expect(one.bv_estimates).toHaveLength(1);
      expect(one.bv_estimates[0]!.within_subject_variation).toBe(d.estimates_of_cvi);
      expect(one.bv_estimates[0]!.between_subject_variation).toBe(d.estimates_of_cvg);
    }
  });
});

describe('bad input is a 400 with a message, never a 500', () => {
  it.each([
    '/api/bv_specifications?limit=-1',
    '/api/bv_specifications?limit=0',
    '/api/bv_specifications?limit=abc',
    '/api/bv_specifications?limit=1001',
    '/api/bv_specifications?offset=-1',
    '/api/bv_specifications?offset=1e',
    '/api/bv_specifications?format=xml',
    '/api/bv_specifications?updated_since=yesterday',
    '/api/bv_specifications/abc',
    '/api/bv_specifications/-4',
  ])('%s', async (url) => {
    const res = await get(url);
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toBeTruthy();
  });
});
