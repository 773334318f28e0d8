import { createHash } from 'node:crypto';
import zlib from 'node:zlib';
import type { Release, ReleaseBuild } from '@bvdb/contract';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailingListMembers } from '../../db/schema.js';
import { exportNotice } from '../../lib/export-notice.js';
import { serviceDeps } from '../../lib/service-deps.js';
import { startFakeMailgun } from '../../test/fake-mailgun.js';
import { signInAs, type SignedIn } from '../../test/sign-in.js';
import { createTestApp, type TestContext } from '../../test/test-app.js';
import { createUser } from '../auth/users.service.js';
import { buildReleaseFiles } from './release-files.js';
import { LOINC_NOTICE } from '@bvdb/domain';
import { releaseDate } from './releases.service.js';

const PASSWORD = 'test-password-123';
const today = () => new Date().toISOString().slice(0, 10);
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

async function publish(ctx: TestContext, s: SignedIn): Promise<ReleaseBuild> {
  const res = await ctx.app.inject({ method: 'POST', url: '/api/v1/releases', headers: s.headers });
  expect(res.statusCode).toBe(202);
  await ctx.app.releases.idle();
  return res.json<{ data: ReleaseBuild }>().data;
}

const listReleases = async (ctx: TestContext) =>
  (await ctx.app.inject({ url: '/api/v1/releases' })).json<{ data: Release[] }>().data;

async function download(ctx: TestContext, url: string): Promise<Buffer> {
  const res = await ctx.app.inject({ url });
  expect(res.statusCode).toBe(200);
  return res.rawPayload;
}

describe('releases of the published database', () => {
  let ctx: TestContext;
  let curator: SignedIn;
  let assessor: SignedIn;
  beforeAll(async () => {
    ctx = await createTestApp();
    const deps = serviceDeps(ctx.app);
    await createUser(deps, { email: 'cur@example.org', name: null, role: 'curator', password: PASSWORD });
    await createUser(deps, { email: 'ass@example.org', name: null, role: 'assessor', password: PASSWORD });
    curator = await signInAs(ctx.app, 'cur@example.org', PASSWORD);
    assessor = await signInAs(ctx.app, 'ass@example.org', PASSWORD);
    await ctx.database.db.insert(mailingListMembers).values([
      { email: 'one@example.org', name: null },
      { email: 'two@example.org', name: 'Two' },
    ]);
  });
  afterAll(async () => ctx.close());

  it('only curators and administrators publish, with the CSRF token', async () => {
    const anon = await ctx.app.inject({ method: 'POST', url: '/api/v1/releases' });
    expect(anon.statusCode).toBe(401);
    const other = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/releases',
      headers: assessor.headers,
    });
    expect(other.statusCode).toBe(403);
    const noCsrf = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/releases',
      headers: { cookie: curator.cookie },
    });
    expect(noCsrf.statusCode).toBe(403);
    expect(
      (await ctx.app.inject({ url: '/api/v1/release-builds', headers: assessor.headers })).statusCode,
    ).toBe(403);
    expect(await listReleases(ctx)).toEqual([]);
    // Nor does the schedule make the first release (the demo's records are in the feed).
    expect(await ctx.app.releases.request('schedule')).toBeNull();
    expect(await listReleases(ctx)).toEqual([]);
  });

  it('a curator publishes: the release is listed with its files, each matching its SHA-256 and the manifest', async () => {
    const build = await publish(ctx, curator);
    expect(build).toMatchObject({ version: today(), status: 'building', cause: 'curator' });
    const [release] = await listReleases(ctx);
    expect(release!.version).toBe(today());
    expect(release!.files.map((f) => f.name)).toEqual([
      'bv_database.json',
      'bv_database.csv',
      'bv_database.xlsx',
      'bv_measurand_codes.csv',
      'datapackage.json',
      'CITATION.cff',
      'LICENCE.txt',
      'RELEASE-NOTES.md',
      'SHA256SUMS',
    ]);
    // The demo's records are the feed's first changes: the notes list them by measurand.
    expect(release!.notes).toMatch(new RegExp(`^# Release ${today()}\\n`));
    expect(release!.notes).toMatch(/changes recorded so far, by measurand/);
    expect(release!.notes).toMatch(/\n## .+\n\n- .+/);
    const bytes = new Map<string, Buffer>();
    for (const f of release!.files) {
      const body = await download(ctx, f.url);
      expect(body.length).toBe(f.bytes);
      expect(sha256(body)).toBe(f.sha256);
      bytes.set(f.name, body);
    }
    const manifest = bytes.get('SHA256SUMS')!.toString('utf8');
    for (const f of release!.files.filter((x) => x.name !== 'SHA256SUMS')) {
      expect(manifest).toContain(`${f.sha256}  ${f.name}\n`);
    }
    // The same data as the public downloads: every published dataset, the CSV described by the package.
    const json = JSON.parse(bytes.get('bv_database.json')!.toString('utf8')) as {
      scope: string;
      exported_at: string;
      tables: { bv_specifications: unknown[] };
    };
    expect(json.scope).toBe('published');
    expect(json.exported_at).toBe(`${today()}T00:00:00.000Z`);
    const csvLines = bytes.get('bv_database.csv')!.toString('utf8').trimEnd().split('\r\n');
    expect(csvLines.length - 1).toBe(json.tables.bv_specifications.length);
    const pkg = JSON.parse(bytes.get('datapackage.json')!.toString('utf8')) as {
      version: string;
      resources: { path: string; hash: string; schema: { fields: { name: string; type: string }[] } }[];
    };
    expect(pkg.version).toBe(today());
    expect(pkg.resources[0]!.path).toBe('bv_database.csv');
    expect(pkg.resources[0]!.hash).toBe(`sha256:${sha256(bytes.get('bv_database.csv')!)}`);
    expect(pkg.resources[0]!.schema.fields.map((f) => f.name).join(',')).toBe(csvLines[0]);
    expect(pkg.resources[0]!.schema.fields[0]).toEqual({ name: 'Dataset ID', type: 'integer' });
    // Each column's type is what its cells hold: whole numbers, numbers, or anything else.
    const typeOf = (name: string) => pkg.resources[0]!.schema.fields.find((f) => f.name === name)?.type;
    expect(typeOf('Matrix')).toBe('string');
    expect(typeOf('Citation')).toBe('string');
    expect(pkg.resources[0]!.schema.fields.some((f) => f.type === 'number')).toBe(true);
    expect(bytes.get('CITATION.cff')!.toString('utf8')).toContain(`date-released: "${today()}"`);
    // The crosswalk (decision 093): the public export's bytes, described by the package, LOINC's
    // notice beside the codes (its licence asks for it wherever they are shipped).
    const crosswalk = bytes.get('bv_measurand_codes.csv')!;
    const publicCrosswalk = await ctx.app.inject({ url: '/api/v1/measurand-codes.csv' });
    expect(crosswalk.toString('utf8')).toBe(publicCrosswalk.body);
    expect(crosswalk.toString('utf8')).toMatch(
      /^system,code,display,measurand,matrix,ucum_unit,source\r\nhttp/,
    );
    expect(pkg.resources[1]).toMatchObject({
      path: 'bv_measurand_codes.csv',
      hash: `sha256:${sha256(crosswalk)}`,
      description: expect.stringContaining(LOINC_NOTICE) as string,
    });
    expect(bytes.get('LICENCE.txt')!.toString('utf8')).toContain(LOINC_NOTICE);
    expect((json as unknown as { loinc_notice: string }).loinc_notice).toBe(LOINC_NOTICE);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(bytes.get('bv_database.xlsx') as unknown as ArrayBuffer);
    expect(wb.getWorksheet('Datasets')!.rowCount - 1).toBe(json.tables.bv_specifications.length);
    // A file of a release is cached for good; its ETag is its hash.
    const again = await ctx.app.inject({
      url: release!.files[1]!.url,
      headers: { 'if-none-match': `"${release!.files[1]!.sha256}"` },
    });
    expect(again.statusCode).toBe(304);
    const one = await ctx.app.inject({ url: `/api/v1/releases/${today()}` });
    expect(one.json<{ data: Release }>().data).toEqual(release);
  });

  it('rebuilding a release from the same database state gives byte-identical files', async () => {
    const [release] = await listReleases(ctx);
    // Later than the first build by more than the zip clock's 2 seconds, so a date left unfixed shows.
    await new Promise((resolve) => setTimeout(resolve, 2100));
    const files = await buildReleaseFiles(ctx.database.db, {
      version: release!.version,
      date: releaseDate(release!.version),
      notes: release!.notes,
      notice: exportNotice(ctx.app.deps.config),
      siteUrl: ctx.app.deps.config.PUBLIC_URL,
    });
    expect(files.map((f) => [f.name, f.sha256])).toEqual(release!.files.map((f) => [f.name, f.sha256]));
    // Every date inside the spreadsheet is the release's day.
    const zip = await JSZip.loadAsync(files.find((f) => f.name === 'bv_database.xlsx')!.bytes);
    const dates = new Set(Object.values(zip.files).map((f) => f.date.toISOString()));
    expect(dates).toEqual(new Set([`${release!.version}T00:00:00.000Z`]));
    const core = await zip.file('docProps/core.xml')!.async('string');
    expect(core).toContain(`${release!.version}T00:00:00Z</dcterms:created>`);
    expect(core).toContain(`${release!.version}T00:00:00Z</dcterms:modified>`);
  });

  it('every file downloads byte for byte with and without Accept-Encoding; the text files stored compressed go out as stored to a gzip client', async () => {
    const [release] = await listReleases(ctx);
    const decoded = (encoding: string | undefined, body: Buffer) =>
      encoding === 'gzip'
        ? zlib.gunzipSync(body)
        : encoding === 'br'
          ? zlib.brotliDecompressSync(body)
          : body;
    const sentGzip: string[] = [];
    for (const f of release!.files) {
      for (const accept of [undefined, 'gzip', 'gzip, deflate, br', 'br', 'gzip;q=0, identity']) {
        const res = await ctx.app.inject({
          url: f.url,
          headers: accept ? { 'accept-encoding': accept } : {},
        });
        expect(res.statusCode, `${f.name} ${accept}`).toBe(200);
        const encoding = res.headers['content-encoding'];
        if (!accept || accept.startsWith('gzip;q=0')) expect(encoding, `${f.name} ${accept}`).toBeUndefined();
        if (encoding === 'gzip' && accept === 'gzip') sentGzip.push(f.name);
        const body = decoded(encoding, res.rawPayload);
        expect(sha256(body), `${f.name} ${accept}`).toBe(f.sha256);
        expect(body.length).toBe(f.bytes);
        if (res.headers['content-length'] !== undefined) {
          expect(Number(res.headers['content-length']), `${f.name} ${accept}`).toBe(res.rawPayload.length);
        }
        if (!accept) expect(Number(res.headers['content-length'])).toBe(f.bytes);
        expect(res.headers.etag).toBe(`"${f.sha256}"`);
        expect(String(res.headers.vary)).toMatch(/accept-encoding/i);
      }
    }
    // The JSON and the CSV are stored gzip-compressed and sent so: no compression per download.
    expect(sentGzip).toEqual(expect.arrayContaining(['bv_database.json', 'bv_database.csv']));
    const stored = await ctx.database.execute(
      `select c.name from release_file_chunks c join releases r on r.id = c.release_id where r.version = '${release!.version}' and c.seq = 0 order by c.name`,
    );
    const names = stored.rows.map((r) => String((r as { name: unknown }).name));
    expect(names).toContain('bv_database.json.gz');
    expect(names).not.toContain('bv_database.json');
    expect(names).toContain('bv_database.xlsx');
  });

  it('a second release the same day is numbered .2; its notes are the changes since the first, by measurand', async () => {
    let [first] = await listReleases(ctx);
    // A run that crossed midnight UTC since the first release: today's first one, then the .2.
    if (!first!.version.startsWith(today())) {
      await publish(ctx, curator);
      [first] = await listReleases(ctx);
    }
    const { rows } = (await ctx.database.execute(
      `update analytes set display_name = display_name || ' (renamed)' where id = (select min(id) from analytes) returning id, display_name`,
    )) as { rows: { id: number; display_name: string }[] };
    const build = await publish(ctx, curator);
    expect(build.version).toBe(`${today()}.2`);
    const [second] = await listReleases(ctx);
    expect(second!.version).toBe(`${today()}.2`);
    expect(second!.notes).toContain(`1 change since release ${first!.version}, by measurand.`);
    expect(second!.notes).toContain(
      `## ${rows[0]!.display_name}\n\n- ${rows[0]!.display_name}: measurand changed`,
    );
    // A third with nothing new says so.
    await publish(ctx, curator);
    const [third] = await listReleases(ctx);
    expect(third!.notes).toContain(`No changes since release ${second!.version}.`);
  });

  it('one build at a time: a second request while one runs is refused (409)', async () => {
    const first = await ctx.app.inject({ method: 'POST', url: '/api/v1/releases', headers: curator.headers });
    const second = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/releases',
      headers: curator.headers,
    });
    expect(first.statusCode).toBe(202);
    expect(second.statusCode).toBe(409);
    expect(second.json<{ message: string }>().message).toMatch(/is being built/);
    await ctx.app.releases.idle();
  });

  it('without Mailgun the notes mailed to the list are stored, and curators and administrators see them', async () => {
    const res = await ctx.app.inject({ url: '/api/v1/release-builds', headers: curator.headers });
    const [latest] = res.json<{ data: ReleaseBuild[] }>().data;
    expect(latest!.status).toBe('published');
    expect(latest!.mailing).toMatchObject({ recipients: 2, sent: 0, failed: 0, delivery: 'stored' });
    expect(latest!.mailing!.subject).toBe(`EFLM Biological Variation Database: release ${latest!.version}`);
    expect(latest!.mailing!.text).toContain(`# Release ${latest!.version}`);
  });

  it('the monthly schedule releases only in a month without a release, and only when something changed', async () => {
    const releases = ctx.app.releases;
    expect(await releases.request('schedule')).toBeNull(); // released this month already
    const nextMonth = new Date(Date.now() + 32 * 24 * 3600 * 1000);
    expect(await releases.request('schedule', nextMonth)).toBeNull(); // nothing changed since
    await ctx.database.db.execute(
      sql`update analytes set display_name = display_name || '!' where id = (select min(id) from analytes)`,
    );
    const build = await releases.request('schedule', nextMonth);
    expect(build).toMatchObject({ version: nextMonth.toISOString().slice(0, 10), cause: 'schedule' });
    await releases.idle();
    expect(await releases.request('schedule', nextMonth)).toBeNull(); // that month has its release
  });

  it('answers 404 for a release or file that is not there, 400 for a malformed version', async () => {
    expect((await ctx.app.inject({ url: '/api/v1/releases/2001-01-01' })).statusCode).toBe(404);
    expect((await ctx.app.inject({ url: '/api/v1/releases/latest' })).statusCode).toBe(400);
    const missing = await ctx.app.inject({ url: `/api/v1/releases/${today()}/files/nothing.txt` });
    expect(missing.statusCode).toBe(404);
    const path = await ctx.app.inject({ url: `/api/v1/releases/${today()}/files/..%2Fetc` });
    expect(path.statusCode).toBe(400);
  });
});

describe('release notes through Mailgun', () => {
  let ctx: TestContext;
  let mailgun: Awaited<ReturnType<typeof startFakeMailgun>>;
  beforeAll(async () => {
    mailgun = await startFakeMailgun({ apiKey: 'key-test', lists: [], domains: ['mg.example.org'] });
    ctx = await createTestApp({
      demo: false,
      env: {
        MAILGUN_API_KEY: 'key-test',
        MAILGUN_DOMAIN: 'mg.example.org',
        MAILGUN_BASE_URL: mailgun.url,
        PUBLIC_URL: 'https://bv.example.org',
      },
    });
    await ctx.database.db.insert(mailingListMembers).values([
      { email: 'one@example.org', name: null },
      { email: 'two@example.org', name: 'Two' },
    ]);
  });
  afterAll(async () => {
    await ctx.close();
    await mailgun.close();
  });

  it('sends each member the notes when a release is published', async () => {
    const admin = await signInAs(ctx.app);
    const build = await publish(ctx, admin);
    expect(build.cause).toBe('admin');
    const subject = `EFLM Biological Variation Database: release ${build.version}`;
    expect(mailgun.messages.map((m) => [m.to, m.subject]).sort()).toEqual([
      ['one@example.org', subject],
      ['two@example.org', subject],
    ]);
    expect(mailgun.messages[0]!.text).toContain(`# Release ${build.version}`);
    expect(mailgun.messages[0]!.text).toContain('https://bv.example.org/releases');
    const res = await ctx.app.inject({ url: '/api/v1/release-builds', headers: admin.headers });
    expect(res.json<{ data: ReleaseBuild[] }>().data[0]!.mailing).toMatchObject({
      recipients: 2,
      sent: 2,
      delivery: 'sent',
    });
  });
});
