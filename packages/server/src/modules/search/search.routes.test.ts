import { searchByAnalyte, type AnalyteWithCount } from '@bvdb/contract';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { analytes, bvSpecifications } from '../../db/schema.js';
import { writeTransaction } from '../../lib/write-transaction.js';
import { serviceDeps } from '../../lib/service-deps.js';
import { signInAs } from '../../test/sign-in.js';
import {
  addAlternateNameAndMeasurand,
  deleteMeasurandAndRenameSodium,
  findSodium,
  restoreSodium,
  useSecondProcess,
  withAlternateNameSeenBy,
  writeDataset,
} from '../../test/measurand-writes.js';
import { useTestApp } from '../../test/test-app.js';
import { listAllAnalytes, listAnalytesWithCounts } from '../analytes/analytes.service.js';
import { AnalyteIndex } from './analyte-index/analyte-index.js';
import { AnalyteSearch } from './search.service.js';

const ctx = useTestApp();

const suggest = async (q: string) =>
  (await ctx.app.inject({ url: `/autocomplete?query=${encodeURIComponent(q)}` })).json<
    { id: number; display_name: string }[]
  >();

describe('GET /autocomplete', () => {
  it('puts prefix matches first, case-insensitively', async () => {
    const list = await suggest('cre');
    expect(list.length).toBeGreaterThan(1);
    expect(list[0]!.display_name).toMatch(/^Cre/);
    expect((await suggest('CREATININE'))[0]!.display_name).toBe('Creatinine');
  });

  it('ranks prefixes and word starts before substrings ("creat": Creatinine, never Pancreatic amylase, first)', async () => {
    const names = (await suggest('creat')).map((s) => s.display_name);
    expect(names[0]).toBe('Creatinine');
    const substring = names.indexOf('Pancreatic amylase');
    expect(substring).toBeGreaterThan(-1);
    // Everything before the substring match starts with the query or has a word that does.
    for (const name of names.slice(0, substring)) expect(name).toMatch(/(^|[^\p{L}\p{N}])creat/iu);
    expect(names.indexOf('Urine albumin/creatinine ratio (ACR)')).toBeLessThan(substring);
  });

  it('ignores accents and matches alternate names', async () => {
    expect((await suggest('créatinine'))[0]!.display_name).toBe('Creatinine');
    expect((await suggest('ALT')).map((s) => s.display_name)).toContain('Alanine aminotransferase (ALT)');
  });

  it('tolerates a typo when nothing matches exactly', async () => {
    expect((await suggest('creatinnie')).map((s) => s.display_name)).toContain('Creatinine');
  });

  it('answers an empty list for an empty query and 400 for an oversized one', async () => {
    expect(await suggest('')).toEqual([]);
    const res = await ctx.app.inject({ url: `/autocomplete?query=${'x'.repeat(500)}` });
    expect(res.statusCode).toBe(400);
  });
});

describe('search redirects', () => {
  it('sends a browser to the results page and a script JSON', async () => {
    const html = await ctx.app.inject({ url: '/api/search/by_analyte?query=creat&format=html' });
    expect(html.statusCode).toBe(302);
    expect(html.headers.location).toBe('/search?query=creat');
    const json = await ctx.app.inject({
      url: '/api/search/by_analyte?query=creat',
      headers: { accept: 'application/json' },
    });
    expect(json.json<{ analytes: { display_name: string }[] }>().analytes[0]!.display_name).toMatch(/Creat/);
  });

  it('by_id leads to the measurand page, and 404s an unknown id', async () => {
    const list = await suggest('Creatinine');
    const res = await ctx.app.inject({
      url: `/api/search/by_id?query=${list[0]!.id}`,
      headers: { accept: 'text/html' },
    });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe(`/analytes/${list[0]!.id}`);
    expect((await ctx.app.inject({ url: '/api/search/by_id?query=999999&format=json' })).statusCode).toBe(
      404,
    );
  });
});

describe('legacy search paths, as links and scripts call them', () => {
  it('keeps the query, encoded, on the way to the results page', async () => {
    const res = await ctx.app.inject({
      url: '/api/search/by_analyte?format=html&query=Glucose%20%26%20HbA1c',
    });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/search?query=Glucose%20%26%20HbA1c');
  });

  it.each([
    '/api/search/by_analyte?query=creat&format=xml',
    '/api/search/by_id?query=abc',
    '/api/search/by_id?query=-1',
    '/api/search/by_id?query=1&format=pdf',
  ])('400 with a message for %s', async (url) => {
    const res = await ctx.app.inject({ url });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toBeTruthy();
  });
});

describe('search by name counts only its matches (issue 26, point 3)', () => {
  /** The answer as it was computed before: every measurand with its count, then the matches kept in rank order. */
  async function before(query: string) {
    const db = ctx.app.deps.database.db;
    const index = new AnalyteIndex(await listAllAnalytes(db));
    const order = new Map(index.searchEveryEntry(query, 50).map((m, i) => [m.id, i]));
    return (await listAnalytesWithCounts(db, false))
      .filter((a) => order.has(a.id))
      .sort((a, b) => order.get(a.id)! - order.get(b.id)!);
  }

  /** The bytes the route's serialiser writes for an answer (each measurand's JSON is made once now, decision 071). */
  const serialised = (answer: { query: string; analytes: AnalyteWithCount[] }) =>
    JSON.stringify(z.encode(searchByAnalyte.responses[200], answer));

  it.each(['cre', 'creatinine', 'ALT', 'glucose', 'urine', 'creatinnie', 'zzzz', 'Créat "1\\2" <b>'])(
    'answers %s as before, byte for byte (same measurands, order and counts)',
    async (query) => {
      const res = await ctx.app.inject({
        url: `/api/search/by_analyte?query=${encodeURIComponent(query)}&format=json`,
      });
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(serialised({ query, analytes: await before(query) }));
    },
  );

  it('answers staff, who count unpublished datasets, byte for byte as the serialiser writes it', async () => {
    const staff = await signInAs(ctx.app);
    for (const query of ['cre', 'urine']) {
      const res = await ctx.app.inject({
        url: `/api/search/by_analyte?query=${query}&format=json`,
        headers: staff.headers,
      });
      expect(res.headers['cache-control']).toBe('private, no-store');
      const search = new AnalyteSearch(serviceDeps(ctx.app));
      expect(res.body).toBe(serialised({ query, analytes: await search.findByName(query, true) }));
    }
  });

  it('keeps the published counts until a dataset changes, and counts unpublished ones for staff', async () => {
    const deps = serviceDeps(ctx.app);
    const search = new AnalyteSearch(deps);
    const creatinine = async (signedIn: boolean) =>
      (await search.findByName('creatinine', signedIn)).find((a) => a.display_name === 'Creatinine')!;
    const before = await creatinine(false);
    expect(before.bv_specifications_count).toBeGreaterThan(1);
    const [one] = await deps.db
      .select({ id: bvSpecifications.id })
      .from(bvSpecifications)
      .where(eq(bvSpecifications.analyteId, before.id))
      .limit(1);
    await deps.db.update(bvSpecifications).set({ published: false }).where(eq(bvSpecifications.id, one!.id));
    // Not yet told: the kept counts stand (what a write through a service always announces).
    expect((await creatinine(false)).bv_specifications_count).toBe(before.bv_specifications_count);
    deps.cache.invalidate(['datasets']);
    expect((await creatinine(false)).bv_specifications_count).toBe(before.bv_specifications_count - 1);
    expect((await creatinine(true)).bv_specifications_count).toBe(before.bv_specifications_count);
    await deps.db.update(bvSpecifications).set({ published: true }).where(eq(bvSpecifications.id, one!.id));
    deps.cache.invalidate(['datasets']);
    expect((await creatinine(false)).bv_specifications_count).toBe(before.bv_specifications_count);
  });

  it('keeps the answer, with an ETag', async () => {
    const url = '/api/search/by_analyte?query=cre&format=json';
    const first = await ctx.app.inject({ url });
    const again = await ctx.app.inject({ url, headers: { 'if-none-match': first.headers.etag as string } });
    expect(again.statusCode).toBe(304);
  });

  it('shows a new measurand and a renamed one right after the write, with their counts', async () => {
    const deps = serviceDeps(ctx.app);
    const byName = async (q: string) =>
      (
        await ctx.app.inject({ url: `/api/search/by_analyte?query=${encodeURIComponent(q)}&format=json` })
      ).json<{ analytes: { id: number; display_name: string; bv_specifications_count: number }[] }>()
        .analytes;
    const suggested = async (q: string) => (await suggest(q)).map((s) => s.display_name);
    // Asked once before the write: the empty answers are kept.
    expect(await byName('zebrafinch')).toEqual([]);
    expect(await suggested('zebrafinch')).toEqual([]);
    const [creatinine] = (await byName('creatinine')).filter((a) => a.display_name === 'Creatinine');
    const added = await writeTransaction(
      deps,
      async (tx) => {
        const [row] = await tx
          .insert(analytes)
          .values({ displayName: 'Zebrafinch kinase', alternateNames: ['ZFK'] })
          .returning({ id: analytes.id });
        await tx
          .update(analytes)
          .set({ displayName: 'Zebrafinch creatinine' })
          .where(eq(analytes.id, creatinine!.id));
        return row!.id;
      },
      ['analytes'],
    );
    try {
      expect(await suggested('zebrafinch')).toEqual(['Zebrafinch kinase', 'Zebrafinch creatinine']);
      expect(await suggested('zfk')).toEqual(['Zebrafinch kinase']);
      const found = await byName('zebrafinch');
      expect(found.map((a) => [a.id, a.display_name, a.bv_specifications_count])).toEqual([
        [added, 'Zebrafinch kinase', 0],
        [creatinine!.id, 'Zebrafinch creatinine', creatinine!.bv_specifications_count],
      ]);
      // The old name is gone from the kept answer of "creatinine".
      expect((await byName('creatinine')).map((a) => a.display_name)).not.toContain('Creatinine');
    } finally {
      await writeTransaction(
        deps,
        async (tx) => {
          await tx.delete(analytes).where(eq(analytes.id, added));
          await tx.update(analytes).set({ displayName: 'Creatinine' }).where(eq(analytes.id, creatinine!.id));
        },
        ['analytes'],
      );
    }
    expect((await byName('creatinine'))[0]!.display_name).toBe('Creatinine');
    expect(await suggested('zebrafinch')).toEqual([]);
  });
});

describe('a write changes only what it wrote (decision 066)', () => {
  const QUERIES = ['cre', 'creatinine', 'ALT', 'glucose', 'urine', 'creatinnie', 'zebrafinch', 'zfk', 'sod'];

  /** The answers of a search kept across writes, and of one reading everything now: they must agree. */
  async function expectSameAsFresh(kept: AnalyteSearch) {
    const fresh = new AnalyteSearch(serviceDeps(ctx.app));
    for (const q of QUERIES) {
      expect(await kept.findByName(q, false), q).toEqual(await fresh.findByName(q, false));
      expect(await kept.suggest(q), q).toEqual(await fresh.suggest(q));
    }
  }

  it('a new alternative name, a rename, a new and a deleted measurand: the next search reads only them', async () => {
    const deps = serviceDeps(ctx.app);
    const search = new AnalyteSearch(deps);
    expect(await search.suggest('zfk')).toEqual([]);
    expect(search.lastRefresh.names).toBe('built');
    const sodium = await findSodium(deps);
    const added = await addAlternateNameAndMeasurand(deps, sodium, 'ZFK natrium', {
      displayName: 'Zebrafinch kinase',
    });
    try {
      expect((await search.suggest('zfk')).map((s) => s.display_name)).toEqual(['Sodium']);
      expect(search.lastRefresh.names).toBe('updated');
      expect((await search.suggest('zebrafinch')).map((s) => s.display_name)).toEqual(['Zebrafinch kinase']);
      await expectSameAsFresh(search);
      await deleteMeasurandAndRenameSodium(deps, added, sodium);
      expect(await search.suggest('zebrafinch')).toEqual([]);
      expect((await search.suggest('natrium')).map((s) => s.display_name)).toContain('Natrium');
      expect((await search.suggest('sodium')).map((s) => s.display_name)).not.toContain('Sodium');
      expect(search.lastRefresh.names).toBe('updated');
      await expectSameAsFresh(search);
    } finally {
      await restoreSodium(deps, sodium);
    }
    expect((await search.suggest('sodium'))[0]!.display_name).toBe('Sodium');
    await expectSameAsFresh(search);
  });

  it('a dataset unpublished, or moved to another measurand and back, moves the counts it touches', async () => {
    const deps = serviceDeps(ctx.app);
    const search = new AnalyteSearch(deps);
    const countOf = async (name: string) =>
      (await search.findByName(name, false)).find((a) => a.display_name === name)!.bv_specifications_count;
    const creatinine = await countOf('Creatinine');
    const sodium = await countOf('Sodium');
    const [ids] = await deps.db
      .select({ creatinine: analytes.id })
      .from(analytes)
      .where(eq(analytes.displayName, 'Creatinine'));
    const [{ id: sodiumId }] = (await deps.db
      .select({ id: analytes.id })
      .from(analytes)
      .where(eq(analytes.displayName, 'Sodium'))) as [{ id: number }];
    const [one] = await deps.db
      .select({ id: bvSpecifications.id })
      .from(bvSpecifications)
      .where(eq(bvSpecifications.analyteId, ids!.creatinine))
      .limit(1);
    const write = (set: Partial<typeof bvSpecifications.$inferInsert>) => writeDataset(deps, one!, set);
    await write({ published: false });
    expect(await countOf('Creatinine')).toBe(creatinine - 1);
    expect(search.lastRefresh.counts).toBe('updated');
    await write({ published: true, analyteId: sodiumId });
    expect([await countOf('Creatinine'), await countOf('Sodium')]).toEqual([creatinine - 1, sodium + 1]);
    await expectSameAsFresh(search);
    await write({ analyteId: ids!.creatinine });
    expect([await countOf('Creatinine'), await countOf('Sodium')]).toEqual([creatinine, sodium]);
    await expectSameAsFresh(search);
  });
});

// Two processes on one PostgreSQL: the reader hears of the writer's commit by notification and
// reads only what the log says changed.
describe.runIf(process.env.TEST_DATABASE_URL)('a write in another process (decision 066)', () => {
  const reader = useSecondProcess(ctx);

  it("shows the writer's rename in the reader's next search and its next autocomplete", async () => {
    const search = new AnalyteSearch(serviceDeps(reader()));
    await reader().inject({ url: '/autocomplete?query=zfk' });
    expect(await search.suggest('zfk')).toEqual([]);
    await withAlternateNameSeenBy(ctx.app, reader(), 'ZFK natrium', async () => {
      expect((await search.suggest('zfk')).map((s) => s.display_name)).toEqual(['Sodium']);
      expect(search.lastRefresh.names).toBe('updated');
      const res = await reader().inject({ url: '/autocomplete?query=zfk' });
      expect(res.json<{ display_name: string }[]>().map((s) => s.display_name)).toEqual(['Sodium']);
    });
  });
});
