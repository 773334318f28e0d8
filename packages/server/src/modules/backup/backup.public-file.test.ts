import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSignedInTestApp, type SignedIn } from '../../test/sign-in.js';
import type { TestContext } from '../../test/test-app.js';

// Issue 27.3: whatever the public pages show, the public whole-database file holds. On PGlite, and on
// PostgreSQL when TEST_DATABASE_URL names a server.
let ctx: TestContext;
let s: SignedIn;
beforeAll(async () => {
  ({ ctx, s } = await createSignedInTestApp());
}, 120_000);
afterAll(async () => ctx.close());

interface PublicFile {
  scope: string;
  tables: Record<string, { id: number }[]>;
}

const publicFile = async () => {
  const res = await ctx.app.inject({ url: '/export/bv_database.json' });
  expect(res.statusCode).toBe(200);
  const file = res.json<PublicFile>();
  expect(file.scope).toBe('published');
  return file;
};
const idsOf = (rows: { id: number }[] | undefined) => new Set((rows ?? []).map((r) => r.id));

describe('the anonymous /export/bv_database.json', () => {
  it('holds every reference and every measurand that has a public record, used by a dataset or not', async () => {
    const refs = (await ctx.app.inject({ url: '/api/references' })).json<{ references: { id: number }[] }>()
      .references;
    const analyteList = (await ctx.app.inject({ url: '/api/analytes_with_bv_specifications' })).json<{
      analytes: { id: number }[];
    }>().analytes;
    const file = await publicFile();
    expect(refs.length).toBeGreaterThan(0);
    expect(idsOf(file.tables.references)).toEqual(new Set(refs.map((r) => r.id)));
    expect(idsOf(file.tables.analytes)).toEqual(new Set(analyteList.map((a) => a.id)));
  });

  it('the kept file changes with the data: a new reference without datasets is in the next download', async () => {
    const before = await publicFile();
    const again = await publicFile(); // served from the kept file
    expect(idsOf(again.tables.references)).toEqual(idsOf(before.tables.references));
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/references',
      headers: s.headers,
      payload: {
        title: 'A reference no dataset uses yet',
        author: 'Doe J',
        journal: 'Clin Chem',
        volume: 1,
        pages: '1-2',
        year_of_publication: 2021,
        pubmed_link: '',
        doi: '',
        link: '',
        link_to_spanish_database: 0,
      },
    });
    expect(res.statusCode).toBe(201);
    const id = res.json<{ reference: { id: number } }>().reference.id;
    expect((await ctx.app.inject({ url: `/api/references/${id}` })).statusCode).toBe(200);
    const after = await publicFile();
    expect(idsOf(after.tables.references).has(id)).toBe(true);
    expect(idsOf(before.tables.references).has(id)).toBe(false);
  });
});
