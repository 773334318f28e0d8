import { createHash, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceFiles, references } from '../../db/schema.js';
import { cleanFileName } from './reference-file.service.js';
import { articleFileDisposition } from './references.presenter.js';
import { createSignedInTestApp, type SignedIn } from '../../test/sign-in.js';
import type { TestContext } from '../../test/test-app.js';

let ctx: TestContext;
let s: SignedIn;
beforeAll(async () => {
  ({ ctx, s } = await createSignedInTestApp());
});
afterAll(async () => ctx.close());

interface Ref {
  id: number;
  title: string;
  doi: string | null;
  version: number;
  article_file_name: string | null;
  article_file_url: string | null;
}

const VALID = {
  title: 'Biological variation of test analytes',
  author: 'Doe J, Roe R',
  journal: 'Clin Chem',
  volume: 64,
  pages: '1-10',
  year_of_publication: 2018,
  pubmed_link: 'https://pubmed.ncbi.nlm.nih.gov/29000000/',
  doi: 'https://doi.org/10.1373/clinchem.2099.000001',
  link: '',
  link_to_spanish_database: 0,
};

async function create(body: Record<string, unknown> = VALID): Promise<Ref> {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/references',
    payload: body,
    headers: s.headers,
  });
  expect(res.statusCode).toBe(201);
  return res.json<{ reference: Ref }>().reference;
}

const history = async (id: number) =>
  (await ctx.app.inject({ url: `/api/audit/reference/${id}`, headers: { cookie: s.cookie } })).json<{
    data: { action: string; changed: string[]; user_email: string | null }[];
  }>().data;

function multipart(bytes: Buffer, filename: string, field = 'file', type = 'application/pdf') {
  const boundary = `----bvdb${Math.random().toString(16).slice(2)}`;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { ...s.headers, 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

describe('POST /api/references', () => {
  it('anonymous 401, no CSRF 403, nothing stored', async () => {
    const before = (await ctx.database.db.select().from(references)).length;
    const anon = await ctx.app.inject({ method: 'POST', url: '/api/references', payload: VALID });
    expect(anon.statusCode).toBe(401);
    const noCsrf = await ctx.app.inject({
      method: 'POST',
      url: '/api/references',
      payload: VALID,
      headers: { cookie: s.cookie },
    });
    expect(noCsrf.statusCode).toBe(403);
    expect((await ctx.database.db.select().from(references)).length).toBe(before);
  });

  it('creates a reference (doi normalised, blanks stored as null), audited, visible in the list at once', async () => {
    const listed = await ctx.app.inject({ url: '/api/references?page=1&search=test analytes' });
    expect(listed.json<{ data: unknown[] }>().data).toHaveLength(0);
    const r = await create();
    expect(r).toMatchObject({
      title: VALID.title,
      doi: '10.1373/clinchem.2099.000001',
      version: 1,
      article_file_url: null,
    });
    const [row] = await ctx.database.db.select().from(references).where(eq(references.id, r.id));
    expect(row!.link).toBeNull();
    const after = await ctx.app.inject({ url: '/api/references?page=1&search=test analytes' });
    expect(after.json<{ data: { id: number }[] }>().data.map((x) => x.id)).toEqual([r.id]);
    const h = await history(r.id);
    expect(h).toHaveLength(1);
    expect(h[0]).toMatchObject({ action: 'create', user_email: 'admin@example.org' });
  });

  it.each([
    [{ ...VALID, title: '  ' }, 'body.title', 'Title is required'],
    [
      { ...VALID, year_of_publication: 1700 },
      'body.year_of_publication',
      'Year of Publication must be between 1800 and 2100',
    ],
    [
      { ...VALID, year_of_publication: 2001.5 },
      'body.year_of_publication',
      'Year of Publication must be a whole number',
    ],
    [{ ...VALID, volume: -1 }, 'body.volume', 'Volume must be 0 or more'],
    [
      { ...VALID, doi: 'not a doi' },
      'body.doi',
      'doi must look like 10.1234/abc (a doi.org address is accepted)',
    ],
    [
      { ...VALID, pubmed_link: 'javascript:alert(1)' },
      'body.pubmed_link',
      'Pubmed Link must be a web address starting with http:// or https://',
    ],
    [
      { ...VALID, link: 'ftp://x' },
      'body.link',
      'Links must be a web address starting with http:// or https://',
    ],
  ])('refuses invalid input with a field message (%#)', async (payload, path, message) => {
    const res = await ctx.app.inject({ method: 'POST', url: '/api/references', payload, headers: s.headers });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ fields: unknown[] }>().fields).toContainEqual({ path, message });
  });

  it('refuses unknown fields (strict) and a duplicate doi (409)', async () => {
    const extra = await ctx.app.inject({
      method: 'POST',
      url: '/api/references',
      payload: { ...VALID, is_demo: true },
      headers: s.headers,
    });
    expect(extra.statusCode).toBe(400);
    const dup = await ctx.app.inject({
      method: 'POST',
      url: '/api/references',
      payload: { ...VALID, doi: '10.1373/CLINCHEM.2099.000001' },
      headers: s.headers,
    });
    expect(dup.statusCode).toBe(409);
    expect(dup.json<{ message: string }>().message).toMatch(/Another reference already has this doi/);
  });
});

describe('PUT /api/references/:id', () => {
  it('saves with the current version, then refuses the stale one with 409 and the current values', async () => {
    const r = await create({ ...VALID, doi: null, title: 'Version test' });
    const ok = await ctx.app.inject({
      method: 'PUT',
      url: `/api/references/${r.id}`,
      payload: { ...VALID, doi: null, title: 'Version test, edited', version: 1 },
      headers: s.headers,
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json<{ reference: Ref }>().reference).toMatchObject({
      title: 'Version test, edited',
      version: 2,
    });
    const stale = await ctx.app.inject({
      method: 'PUT',
      url: `/api/references/${r.id}`,
      payload: { ...VALID, doi: null, title: 'Overwrite attempt', version: 1 },
      headers: s.headers,
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ current: { title: 'Version test, edited', version: 2 } });
    const [row] = await ctx.database.db.select().from(references).where(eq(references.id, r.id));
    expect(row).toMatchObject({ title: 'Version test, edited', version: 2 });
    const h = await history(r.id);
    expect(h.map((e) => e.action)).toEqual(['update', 'create']);
    expect(h[0]!.changed).toEqual(['title']);
  });

  it('401 anonymous, 403 without CSRF, 404 unknown, 400 without version', async () => {
    const body = { ...VALID, version: 1 };
    expect(
      (await ctx.app.inject({ method: 'PUT', url: '/api/references/1', payload: body })).statusCode,
    ).toBe(401);
    expect(
      (
        await ctx.app.inject({
          method: 'PUT',
          url: '/api/references/1',
          payload: body,
          headers: { cookie: s.cookie },
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (
        await ctx.app.inject({
          method: 'PUT',
          url: '/api/references/999999',
          payload: body,
          headers: s.headers,
        })
      ).statusCode,
    ).toBe(404);
    const noVersion = await ctx.app.inject({
      method: 'PUT',
      url: '/api/references/1',
      payload: VALID,
      headers: s.headers,
    });
    expect(noVersion.statusCode).toBe(400);
    expect(noVersion.json<{ fields: { path: string }[] }>().fields.map((f) => f.path)).toContain(
      'body.version',
    );
  });
});

describe('DELETE /api/references/:id', () => {
  it('with ?version= refuses a stale one with 409 and the current values, and deletes with the current one', async () => {
    const r = await create({ ...VALID, doi: null, title: 'Delete by version' });
    const edited = await ctx.app.inject({
      method: 'PUT',
      url: `/api/references/${r.id}`,
      payload: { ...VALID, doi: null, title: 'Delete by version, edited', version: 1 },
      headers: s.headers,
    });
    expect(edited.statusCode).toBe(200);
    const stale = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/references/${r.id}?version=1`,
      headers: s.headers,
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({
      message: expect.stringMatching(/not deleted/),
      current: { title: 'Delete by version, edited', version: 2 },
    });
    expect((await ctx.app.inject({ url: `/api/references/${r.id}` })).statusCode).toBe(200);
    for (const bad of ['version=abc', 'version=0', 'version=2147483648', 'versoin=2']) {
      const res = await ctx.app.inject({
        method: 'DELETE',
        url: `/api/references/${r.id}?${bad}`,
        headers: s.headers,
      });
      expect({ bad, status: res.statusCode }).toEqual({ bad, status: 400 });
    }
    const ok = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/references/${r.id}?version=2`,
      headers: s.headers,
    });
    expect(ok.statusCode).toBe(200);
    expect((await ctx.app.inject({ url: `/api/references/${r.id}` })).statusCode).toBe(404);
  });

  it('refuses a reference still used by datasets, naming how many, and keeps it', async () => {
    const used = (await ctx.app.inject({ url: '/api/references/1' })).json<{
      reference: { bv_specifications_count: number };
    }>().reference.bv_specifications_count;
    expect(used).toBeGreaterThan(0);
    const version = (await ctx.app.inject({ url: '/api/references/1' })).json<{
      reference: { version: number };
    }>().reference.version;
    const res = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/references/1?version=${version}`,
      headers: s.headers,
    });
    expect(res.statusCode).toBe(409);
    expect(res.json<{ message: string }>().message).toMatch(
      new RegExp(`cannot be deleted: ${used} datasets? uses?`),
    );
    expect((await ctx.app.inject({ url: '/api/references/1' })).statusCode).toBe(200);
  });

  it('deletes an unused reference with its file, audited; then 404', async () => {
    const r = await create({ ...VALID, doi: null, title: 'To be deleted' });
    const up = multipart(PDF, 'paper.pdf');
    expect(
      (await ctx.app.inject({ method: 'POST', url: `/api/references/${r.id}/file`, ...up })).statusCode,
    ).toBe(200);
    expect((await ctx.app.inject({ method: 'DELETE', url: `/api/references/${r.id}` })).statusCode).toBe(401);
    const unversioned = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/references/${r.id}`,
      headers: s.headers,
    });
    expect(unversioned.statusCode).toBe(400);
    expect(unversioned.json<{ message: string }>().message).toMatch(/version is required/);
    expect((await ctx.app.inject({ url: `/api/references/${r.id}` })).statusCode).toBe(200);
    // The upload saved the reference: the version to send is the one it has now.
    const { version } = (await ctx.app.inject({ url: `/api/references/${r.id}` })).json<{
      reference: Ref;
    }>().reference;
    const res = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/references/${r.id}?version=${version}`,
      headers: s.headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ code: 'success' });
    expect((await ctx.app.inject({ url: `/api/references/${r.id}` })).statusCode).toBe(404);
    expect(
      await ctx.database.db.select().from(referenceFiles).where(eq(referenceFiles.referenceId, r.id)),
    ).toEqual([]);
    expect((await history(r.id))[0]).toMatchObject({ action: 'delete' });
    const again = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/references/${r.id}?version=${version}`,
      headers: s.headers,
    });
    expect(again.statusCode).toBe(404);
  });
});

describe('article file names', () => {
  it('keep no folder, quote or control character, and always end in .pdf', () => {
    expect(cleanFileName('C:\\Users\\me\\paper.PDF')).toBe('paper.PDF');
    expect(cleanFileName('a"b\r\nX-Evil: 1')).toBe('abX-Evil: 1.pdf');
    expect(cleanFileName('..')).toBe('article.pdf');
    expect(cleanFileName(undefined)).toBe('article.pdf');
    expect(articleFileDisposition('a"b\r\n.pdf')).toBe(
      `attachment; filename="a_b_.pdf"; filename*=UTF-8''a%22b%0D%0A.pdf`,
    );
  });
});

describe('article files', () => {
  it('accepts a PDF, stores it in the database and serves it as a safe attachment', async () => {
    const r = await create({ ...VALID, doi: null, title: 'With a file' });
    const up = multipart(PDF, '../../etc/Étude: final; (v2)');
    const res = await ctx.app.inject({ method: 'POST', url: `/api/references/${r.id}/file`, ...up });
    expect(res.statusCode).toBe(200);
    const ref = res.json<{ reference: Ref }>().reference;
    expect(ref.article_file_url).toBe(`/api/references/${r.id}/file`);
    expect(ref.article_file_name).toBe('Étude: final; (v2).pdf');
    expect(ref.version).toBe(2);

    const file = await ctx.app.inject({ url: `/api/references/${r.id}/file` });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(file.headers['content-disposition']).toBe(
      'attachment; filename="Etude_ final_ _v2_.pdf"; filename*=UTF-8\'\'%C3%89tude%3A%20final%3B%20%28v2%29.pdf',
    );
    expect(file.rawPayload.equals(PDF)).toBe(true);
    const etag = file.headers.etag as string;
    expect(
      (await ctx.app.inject({ url: `/api/references/${r.id}/file`, headers: { 'if-none-match': etag } }))
        .statusCode,
    ).toBe(304);
    expect((await history(r.id))[0]!.changed).toEqual(
      expect.arrayContaining(['article_file_name', 'article_file_url']),
    );

    const removed = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/references/${r.id}/file`,
      headers: s.headers,
    });
    expect(removed.json<{ reference: Ref }>().reference).toMatchObject({
      article_file_name: null,
      article_file_url: null,
    });
    expect((await ctx.app.inject({ url: `/api/references/${r.id}/file` })).statusCode).toBe(404);
  });

  it('streams a large file out of the database in pieces, byte for byte', async () => {
    const r = await create({ ...VALID, doi: null, title: 'With a large file' });
    // Three 256 KB pieces and a short last one; random bytes, so no piece repeats another.
    const big = Buffer.concat([PDF, randomBytes(3 * 256 * 1024 + 1234)]);
    const up = multipart(big, 'large.pdf');
    expect(
      (await ctx.app.inject({ method: 'POST', url: `/api/references/${r.id}/file`, ...up })).statusCode,
    ).toBe(200);
    const file = await ctx.app.inject({ url: `/api/references/${r.id}/file` });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-length']).toBe(String(big.length));
    expect(file.rawPayload.equals(big)).toBe(true);
  });

  it('serves later downloads from the copy on disk, and a replaced file never from the old copy', async () => {
    const r = await create({ ...VALID, doi: null, title: 'With a cached file' });
    const url = `/api/references/${r.id}/file`;
    const first = Buffer.concat([PDF, randomBytes(300 * 1024)]);
    expect((await ctx.app.inject({ method: 'POST', url, ...multipart(first, 'a.pdf') })).statusCode).toBe(
      200,
    );
    const [a, b] = await Promise.all([ctx.app.inject({ url }), ctx.app.inject({ url })]);
    expect(a.rawPayload.equals(first) && b.rawPayload.equals(first)).toBe(true);

    // Spoil the stored bytes behind the service's back (same length and hash): a download that
    // still gives the upload's bytes came from the copy, not from the database.
    await ctx.database.db
      .update(referenceFiles)
      .set({ bytes: Buffer.alloc(first.length, 0x41) })
      .where(eq(referenceFiles.referenceId, r.id));
    expect((await ctx.app.inject({ url })).rawPayload.equals(first)).toBe(true);

    // Replaced through the API, with the same length: the new bytes, not the copy's.
    const second = Buffer.concat([PDF, randomBytes(300 * 1024)]);
    expect((await ctx.app.inject({ method: 'POST', url, ...multipart(second, 'b.pdf') })).statusCode).toBe(
      200,
    );
    const after = await ctx.app.inject({ url });
    expect(after.headers['content-length']).toBe(String(second.length));
    expect(after.rawPayload.equals(second)).toBe(true);

    // Replaced by another process (no invalidation here): the hash read per request names a new copy.
    const third = Buffer.concat([PDF, randomBytes(1000)]);
    await ctx.database.db
      .update(referenceFiles)
      .set({ bytes: third, size: third.length, sha256: createHash('sha256').update(third).digest('hex') })
      .where(eq(referenceFiles.referenceId, r.id));
    expect((await ctx.app.inject({ url })).rawPayload.equals(third)).toBe(true);

    expect((await ctx.app.inject({ method: 'DELETE', url, headers: s.headers })).statusCode).toBe(200);
    expect((await ctx.app.inject({ url })).statusCode).toBe(404);
  });

  it('writes the copy on disk at upload: even the first download reads nothing from the database', async () => {
    const r = await create({ ...VALID, doi: null, title: 'Copied at upload' });
    const url = `/api/references/${r.id}/file`;
    const bytes = Buffer.concat([PDF, randomBytes(200 * 1024)]);
    expect((await ctx.app.inject({ method: 'POST', url, ...multipart(bytes, 'c.pdf') })).statusCode).toBe(
      200,
    );
    await ctx.database.db
      .update(referenceFiles)
      .set({ bytes: Buffer.alloc(bytes.length, 0x41) })
      .where(eq(referenceFiles.referenceId, r.id));
    expect((await ctx.app.inject({ url })).rawPayload.equals(bytes)).toBe(true);
  });

  it('refuses a file that is not a PDF by its bytes, whatever its name (422)', async () => {
    const r = await create({ ...VALID, doi: null, title: 'Not a PDF' });
    const html = multipart(Buffer.from('<html><script>alert(1)</script></html>'), 'paper.pdf');
    const res = await ctx.app.inject({ method: 'POST', url: `/api/references/${r.id}/file`, ...html });
    expect(res.statusCode).toBe(422);
    expect(res.json<{ message: string }>().message).toMatch(/Only PDF files/);
    expect((await ctx.app.inject({ url: `/api/references/${r.id}/file` })).statusCode).toBe(404);
  });

  it('refuses a file over 20 MB (413), an empty one, a request that is not multipart, and anonymous uploads', async () => {
    const r = await create({ ...VALID, doi: null, title: 'Too large' });
    const big = Buffer.alloc(20 * 1024 * 1024 + 1, 0x20);
    PDF.copy(big);
    const tooBig = await ctx.app.inject({
      method: 'POST',
      url: `/api/references/${r.id}/file`,
      ...multipart(big, 'big.pdf'),
    });
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json<{ message: string }>().message).toBe('The file is too large (20 MB at most)');
    const empty = await ctx.app.inject({
      method: 'POST',
      url: `/api/references/${r.id}/file`,
      ...multipart(Buffer.alloc(0), 'empty.pdf'),
    });
    expect(empty.statusCode).toBe(400);
    const json = await ctx.app.inject({
      method: 'POST',
      url: `/api/references/${r.id}/file`,
      payload: { file: 'x' },
      headers: s.headers,
    });
    expect(json.statusCode).toBe(400);
    const anon = await ctx.app.inject({
      method: 'POST',
      url: `/api/references/${r.id}/file`,
      payload: multipart(PDF, 'a.pdf').payload,
      headers: { 'content-type': multipart(PDF, 'a.pdf').headers['content-type'] },
    });
    expect(anon.statusCode).toBe(401);
    const unknown = await ctx.app.inject({
      method: 'POST',
      url: '/api/references/999999/file',
      ...multipart(PDF, 'a.pdf'),
    });
    expect(unknown.statusCode).toBe(404);
    const [row] = await ctx.database.db.select().from(references).where(eq(references.id, r.id));
    expect(row!.articleFileName).toBeNull();
  });
});
