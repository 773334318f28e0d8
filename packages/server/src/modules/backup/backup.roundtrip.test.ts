import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInAs } from '../../test/sign-in.js';
import { createTestApp, TEST_ADMIN, type TestContext } from '../../test/test-app.js';
import { depsOf, publicAnswers } from '../../test/backup-answers.js';
import { importDatabaseJson } from './backup-import.service.js';

// Round-trip on PGlite, and on PostgreSQL when TEST_DATABASE_URL names a server.
let source: TestContext;
let target: TestContext;
let headers: Record<string, string>;
const menuIds: string[] = [];
beforeAll(async () => {
  source = await createTestApp();
  target = await createTestApp({ demo: false });
  headers = (await signInAs(source.app)).headers;
  // Kept test menus (decision 064): a visitor's link menu and the administrator's named one.
  const session = await source.app.inject({ url: '/api/session' });
  const visitor = {
    cookie: `bvdb_csrf=${session.cookies.find((c) => c.name === 'bvdb_csrf')!.value}`,
    'x-csrf-token': session.json<{ csrf_token: string }>().csrf_token,
  };
  for (const [payload, h] of [
    [{ tests: [{ name: 'Sodium', cva: 0.5, bias: 0.2 }, { name: 'Nothing known' }] }, visitor],
    [{ tests: [{ name: 'Glucose', cva: 2, bias: 1 }], name: 'Chemistry' }, headers],
  ] as const) {
    const res = await source.app.inject({ method: 'POST', url: '/api/v1/menus', payload, headers: h });
    if (res.statusCode !== 201) throw new Error(res.body);
    menuIds.push(res.json<{ id: string }>().id);
  }
  // An unpublished dataset, so the signed-in export differs from the public one.
  await source.database.db.execute(
    'update bv_specifications set published = false where id = (select min(id) from bv_specifications)',
  );
}, 120_000);
afterAll(async () => {
  await source?.close();
  await target?.close();
});

/** The v1 measurand answers (estimate ids and versions) and every estimate's history. */
async function historyAnswers(app: typeof source.app) {
  const answers: Record<string, unknown> = {};
  const measurands = (await app.inject({ url: '/api/v1/measurands?limit=1000' })).json<{
    data: { id: number }[];
  }>();
  for (const m of measurands.data) {
    const url = `/api/v1/measurands/${m.id}/metas`;
    const body = (await app.inject({ url })).json<{ metas: { estimate_id: number | null }[] }>();
    answers[url] = body;
    for (const e of body.metas) {
      const h = `/api/v1/estimates/${e.estimate_id}/history`;
      answers[h] = (await app.inject({ url: h })).json<unknown>();
    }
  }
  return answers;
}

describe('whole-database export and import', () => {
  it('the anonymous export holds the published records only, with ids and a format version', async () => {
    const res = await source.app.inject({ url: '/export/bv_database.json' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.headers['content-disposition']).toMatch(/bv_database_\d{4}-\d\d-\d\d\.json/);
    const file = res.json<{
      format: string;
      format_version: number;
      scope: string;
      tables: Record<string, { id?: number; published?: boolean }[]>;
    }>();
    expect(file).toMatchObject({ format: 'bvdb-database', format_version: 1, scope: 'published' });
    expect(file.tables.bv_specifications!.every((d) => d.published)).toBe(true);
    expect(Object.keys(file.tables)).not.toContain('users');
    expect(Object.keys(file.tables)).not.toContain('menus');
    const signedIn = (await source.app.inject({ url: '/export/bv_database.json', headers })).json<
      typeof file
    >();
    expect(signedIn.scope).toBe('all');
    expect(signedIn.tables.bv_specifications!.length).toBe(file.tables.bv_specifications!.length + 1);
  });

  it('anonymous and signed-in API answers are identical after export → import into an empty database', async () => {
    const text = (await source.app.inject({ url: '/export/bv_database.json', headers })).body;
    const summary = await importDatabaseJson(depsOf(target), text, { mode: 'new', allowFull: false });
    expect(summary.written).toBe(true);
    expect(await publicAnswers(target.app)).toEqual(await publicAnswers(source.app));
    const targetHeaders = (await signInAs(target.app)).headers;
    expect(await publicAnswers(target.app, targetHeaders)).toEqual(await publicAnswers(source.app, headers));
    // A second export is the same file, byte for byte but for its date.
    const again = (await target.app.inject({ url: '/export/bv_database.json', headers: targetHeaders })).body;
    const strip = (s: string) => s.replace(/"exported_at":"[^"]+"/, '');
    expect(strip(again)).toEqual(strip(text));
  });

  it('new records get ids past the imported ones (sequences moved)', async () => {
    const s = await signInAs(target.app);
    const res = await target.app.inject({
      method: 'POST',
      url: '/api/units',
      headers: s.headers,
      payload: { name: 'mmol/mol (round-trip)' },
    });
    expect(res.statusCode).toBe(201);
    const max = await target.database.execute('select max(id)::int as m from units');
    expect(res.json<{ unit: { id: number } }>().unit.id).toBe((max.rows[0] as { m: number }).m);
  });

  it('a complete backup (--full) carries users with their password hashes: the old password signs in', async () => {
    const anon = await source.app.inject({ url: '/export/bv_database.json?full=1' });
    expect(anon.statusCode).toBe(401);
    const full = await source.app.inject({ url: '/export/bv_database.json?full=1', headers });
    expect(full.statusCode).toBe(200);
    const file = full.json<{ scope: string; tables: Record<string, unknown[]> }>();
    expect(file.scope).toBe('full');
    for (const t of [
      'users',
      'audit_log',
      'mailing_list_members',
      'content_pages',
      'reference_files',
      'estimates',
      'estimate_versions',
      'menus',
    ]) {
      expect(Object.keys(file.tables)).toContain(t);
    }
    const restored = await createTestApp({ demo: false });
    try {
      await expect(
        importDatabaseJson(depsOf(restored), full.body, { mode: 'new', allowFull: false }),
      ).rejects.toThrow(/Only an administrator/);
      const summary = await importDatabaseJson(depsOf(restored), full.body, { mode: 'new', allowFull: true });
      expect(summary.scope).toBe('full');
      await expect(signInAs(restored.app, TEST_ADMIN.email, TEST_ADMIN.password)).resolves.toBeDefined();
      const restoredHeaders = (await signInAs(restored.app)).headers;
      expect(await publicAnswers(restored.app, restoredHeaders)).toEqual(
        await publicAnswers(source.app, headers),
      );
      // The estimates' history comes back with the backup (issue 29.3): same ids, same versions.
      expect(file.tables.estimate_versions!.length).toBeGreaterThan(20);
      expect(await historyAnswers(restored.app)).toEqual(await historyAnswers(source.app));
      // Kept menus come back: the same link opens the same lines and kept values, nothing changed.
      expect(file.tables.menus!.length).toBe(2);
      for (const id of menuIds) {
        const [a, b] = await Promise.all(
          [source.app, restored.app].map(async (app) =>
            (await app.inject({ url: `/api/v1/menus/${id}` })).json<Record<string, unknown>>(),
          ),
        );
        expect(b!.menu).toMatchObject({ id, name: (a!.menu as { name: unknown }).name });
        expect(b!.lines).toEqual(a!.lines);
        expect(b!.kept).toEqual(a!.kept);
        expect(b!.changes).toEqual([]);
      }
      const mine = await restored.app.inject({ url: '/api/v1/menus', headers: restoredHeaders });
      expect(mine.json<{ data: { name: string }[] }>().data.map((m) => m.name)).toEqual(['Chemistry']);
    } finally {
      await restored.close();
    }
  }, 60_000);
});
