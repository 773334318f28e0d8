import ExcelJS from 'exceljs';
import { KeptMenuResponseSchema, KeptMenuSchema, type KeptMenu } from '@bvdb/contract';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { menus } from '../../db/schema.js';
import { editDataset, signInAsNewCurator, usedDataset } from '../../test/edit-dataset.js';
import { signInAs, visitorHeaders } from '../../test/sign-in.js';
import { useTestApp } from '../../test/test-app.js';
import { sweepLinkMenus } from './kept-menus.service.js';

// Runs on PGlite, and on PostgreSQL when TEST_DATABASE_URL names a server.
const ctx = useTestApp();

const visitor = () => visitorHeaders(ctx.app);

const TESTS = [
  { name: 'Sodium', cva: 0.5, bias: 0.2 },
  { name: 'Glucose', cva: 2, bias: 1 },
  { name: 'Not a test we know' },
];

const save = async (payload: unknown, headers?: Record<string, string>) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/v1/menus',
    payload: payload as object,
    headers: headers ?? (await visitor()),
  });

async function saved(payload: unknown, headers?: Record<string, string>): Promise<KeptMenu> {
  const res = await save(payload, headers);
  expect(res.statusCode, res.body).toBe(201);
  return KeptMenuSchema.parse(res.json());
}

const open = async (id: string, headers: Record<string, string> = {}) => {
  const res = await ctx.app.inject({ url: `/api/v1/menus/${id}`, headers });
  expect(res.statusCode, res.body).toBe(200);
  return KeptMenuResponseSchema.parse(res.json());
};

const countMenus = async () =>
  Number((await ctx.database.db.select({ n: sql<number>`count(*)` }).from(menus))[0]!.n);

describe('kept test menus (issue 32.4)', () => {
  it('a visitor keeps a menu in its link and opens it again: same lines, today’s sheet, no change', async () => {
    const menu = await saved({ tests: TESTS, level: 'optimal', probability: 0.9 });
    expect(menu.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(menu.url).toMatch(new RegExp(`/applications/menu/${menu.id}$`));
    expect(menu).toMatchObject({
      owned: false,
      mine: false,
      name: null,
      tests: 3,
      level: 'optimal',
      probability: 0.9,
    });
    // Deleted 13 months after it was last opened.
    const months =
      (Date.parse(menu.expires_at!) - Date.parse(menu.opened_at)) / (1000 * 60 * 60 * 24 * 30.44);
    expect(months).toBeGreaterThan(12.9);
    expect(months).toBeLessThan(13.1);

    const again = await open(menu.id);
    expect(again.lines).toEqual(TESTS);
    expect(again.sheet.parameters).toMatchObject({ level: 'optimal', probability: 0.9 });
    expect(again.sheet.tests.map((t) => t.status)).toEqual(['matched', 'matched', 'unmatched']);
    expect(again.kept.map((k) => k.match?.display_name ?? null)).toEqual(['Sodium', 'Glucose', null]);
    expect(again.kept[0]!.cvi!.version).toBe(again.sheet.tests[0]!.estimate!.version);
    expect(again.changes).toEqual([]);
    // Two ids are never the same.
    expect((await saved({ tests: TESTS })).id).not.toBe(menu.id);
  });

  it('names what changed after a curator edits a dataset behind an estimate: before → now', async () => {
    const { specId, cv, analyteId } = await usedDataset(ctx.database);
    const menu = await saved({ tests: [{ code: String(analyteId), cva: 1, bias: 0.5 }, ...TESTS] });
    const before = await open(menu.id);
    expect(before.changes).toEqual([]);
    const keptCvi = before.kept[0]!.cvi!;

    await editDataset(ctx.app, specId, { estimates_of_cvi: cv + 7.5 });
    await ctx.app.deps.recompute.settle();

    const after = await open(menu.id);
    const cvi = after.sheet.tests[0]!.estimate!;
    expect(cvi.version).toBe(keptCvi.version! + 1);
    const change = after.changes.find((c) => c.line === 1 && c.what === 'CVI');
    expect(change).toMatchObject({ kind: 'estimate' });
    expect(change!.before).toContain(`version ${keptCvi.version}`);
    expect(change!.now).toContain(`version ${cvi.version}`);
    // The kept values are not touched by opening: the change is there each time.
    expect((await open(menu.id)).changes).toEqual(after.changes);
    // The other lines did not move.
    expect(after.changes.every((c) => c.line === 1)).toBe(true);
  });

  it('refuses a save without the CSRF token, and stores nothing', async () => {
    const n = await countMenus();
    const none = await ctx.app.inject({ method: 'POST', url: '/api/v1/menus', payload: { tests: TESTS } });
    expect(none.statusCode).toBe(403);
    const v = await visitor();
    const wrong = await save({ tests: TESTS }, { ...v, 'x-csrf-token': 'x'.repeat(43) });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().message).toMatch(/CSRF/);
    expect(await countMenus()).toBe(n);
  });

  it('answers 400 with a message for bad bodies, and refuses more than 1,000 tests', async () => {
    const n = await countMenus();
    for (const [body, message] of [
      [{ tests: [] }, /no tests/],
      [{ tests: [{ name: 'Sodium', cva: 'two' }] }, /cva/],
      [{ tests: [{ name: 'Sodium', colour: 'red' }] }, /colour|Unrecognized/i],
      [{ tests: TESTS, level: 'perfect' }, /level/],
      [{ tests: TESTS, name: 'My menu' }, /Sign in to name a menu/],
      [{ tests: Array.from({ length: 1001 }, () => ({ name: 'Sodium' })) }, /at most 1000 tests/],
    ] as const) {
      const res = await save(body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.json().message).toMatch(message);
    }
    expect(await countMenus()).toBe(n);
    // 1,000 tests is the most a menu holds, and is kept.
    const big = await saved({
      tests: Array.from({ length: 1000 }, (_, i) => ({
        name: i % 2 ? 'Sodium' : 'Glucose',
        cva: 1,
        bias: 0.3,
      })),
    });
    expect(big.tests).toBe(1000);
  });

  it('answers 404 with a message for an unknown id', async () => {
    for (const id of ['AAAAAAAAAAAAAAAAAAAAAA', 'nope', 'x'.repeat(100)]) {
      const res = await ctx.app.inject({ url: `/api/v1/menus/${id}` });
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toMatch(/No kept menu has this link/);
    }
  });

  it('a signed-in user’s named menu: listed, renamed at its version (409 when stale), reviewed; others 401/403', async () => {
    const owner = await signInAsNewCurator(ctx.app);
    const menu = await saved({ tests: TESTS, name: 'Chemistry, January' }, owner.headers);
    expect(menu).toMatchObject({ owned: true, mine: true, name: 'Chemistry, January', expires_at: null });

    const list = await ctx.app.inject({ url: '/api/v1/menus', headers: owner.headers });
    expect(list.statusCode).toBe(200);
    expect(list.json<{ data: KeptMenu[] }>().data.map((m) => m.name)).toEqual(['Chemistry, January']);
    expect((await ctx.app.inject({ url: '/api/v1/menus' })).statusCode).toBe(401);
    // Anyone with the link opens it; only its owner sees it as theirs.
    expect((await open(menu.id)).menu).toMatchObject({ mine: false, name: 'Chemistry, January' });
    expect((await open(menu.id, owner.headers)).menu.mine).toBe(true);

    const put = (headers: Record<string, string>, payload: object) =>
      ctx.app.inject({ method: 'PUT', url: `/api/v1/menus/${menu.id}`, payload, headers });
    expect((await put({}, { version: menu.version, name: 'Mine now' })).statusCode).toBe(401);
    const admin = await signInAs(ctx.app);
    const other = await put(admin.headers, { version: menu.version, name: 'Mine now' });
    expect(other.statusCode).toBe(403);
    expect(other.json().message).toMatch(/Only the person who kept this menu/);
    const noCsrf = await put({ cookie: owner.cookie }, { version: menu.version, name: 'X' });
    expect(noCsrf.statusCode).toBe(403);

    const renamed = await put(owner.headers, { version: menu.version, name: 'Chemistry, February' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({ name: 'Chemistry, February', version: menu.version + 1 });
    const stale = await put(owner.headers, { version: menu.version, name: 'Chemistry, March' });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().current).toMatchObject({ name: 'Chemistry, February' });
    expect((await put(owner.headers, { version: 1, name: '' })).statusCode).toBe(400);

    const reviewed = await put(owner.headers, { version: menu.version + 1, review: true });
    expect(reviewed.statusCode).toBe(200);
    expect(Date.parse(reviewed.json().kept_at)).toBeGreaterThanOrEqual(Date.parse(menu.kept_at));

    // Another user deletes nothing of it; the owner does.
    const curator2 = await signInAsNewCurator(ctx.app);
    const del = (headers: Record<string, string>) =>
      ctx.app.inject({ method: 'DELETE', url: `/api/v1/menus/${menu.id}`, headers });
    expect((await del(curator2.headers)).statusCode).toBe(403);
    expect((await del(owner.headers)).statusCode).toBe(200);
    expect((await ctx.app.inject({ url: `/api/v1/menus/${menu.id}` })).statusCode).toBe(404);
  });

  it('a link menu is changed by nobody; only an administrator deletes it', async () => {
    const menu = await saved({ tests: TESTS });
    const admin = await signInAs(ctx.app);
    const curator = await signInAsNewCurator(ctx.app);
    const put = await ctx.app.inject({
      method: 'PUT',
      url: `/api/v1/menus/${menu.id}`,
      payload: { version: menu.version, name: 'Taken' },
      headers: admin.headers,
    });
    expect(put.statusCode).toBe(403);
    expect(put.json().message).toMatch(/kept in its link cannot be changed/);
    const del = (headers: Record<string, string>) =>
      ctx.app.inject({ method: 'DELETE', url: `/api/v1/menus/${menu.id}`, headers });
    expect((await del(curator.headers)).statusCode).toBe(403);
    expect((await del(admin.headers)).statusCode).toBe(200);
    expect((await ctx.app.inject({ url: `/api/v1/menus/${menu.id}` })).statusCode).toBe(404);
  });

  it('a signed-in user saves a link menu as their own named menu: listed, same kept values and date, the link unchanged', async () => {
    const { specId, cv, analyteId } = await usedDataset(ctx.database);
    const link = await saved({ tests: [{ code: String(analyteId), cva: 1, bias: 0.5 }, ...TESTS] });
    const original = await open(link.id);
    const copy = (id: string, payload: object, headers: Record<string, string>) =>
      ctx.app.inject({ method: 'POST', url: `/api/v1/menus/${id}/copies`, payload, headers });

    // Anonymous: 401; signed in without the CSRF token: 403; stores nothing.
    const n = await countMenus();
    expect((await copy(link.id, { name: 'Mine' }, await visitor())).statusCode).toBe(401);
    const owner = await signInAsNewCurator(ctx.app);
    expect((await copy(link.id, { name: 'Mine' }, { cookie: owner.cookie })).statusCode).toBe(403);
    // A bad name: 400 with a message; an unknown link: 404.
    for (const payload of [
      {},
      { name: '' },
      { name: '   ' },
      { name: 'x'.repeat(201) },
      { name: 'A', tests: [] },
    ]) {
      const res = await copy(link.id, payload, owner.headers);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().message).toBeTruthy();
    }
    const unknown = await copy('AAAAAAAAAAAAAAAAAAAAAA', { name: 'Mine' }, owner.headers);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toMatch(/No kept menu has this link/);
    expect(await countMenus()).toBe(n);

    const res = await copy(link.id, { name: '  Chemistry, from the link ' }, owner.headers);
    expect(res.statusCode, res.body).toBe(201);
    const mine = KeptMenuSchema.parse(res.json());
    expect(mine.id).not.toBe(link.id);
    expect(mine).toMatchObject({
      name: 'Chemistry, from the link',
      owned: true,
      mine: true,
      expires_at: null,
      tests: link.tests,
      level: link.level,
      probability: link.probability,
      kept_at: link.kept_at,
      version: 1,
    });
    const list = await ctx.app.inject({ url: '/api/v1/menus', headers: owner.headers });
    expect(list.json<{ data: KeptMenu[] }>().data.map((m) => m.id)).toEqual([mine.id]);

    // The copy still compares with the values kept on the original's date: a change since shows in both.
    await editDataset(ctx.app, specId, { estimates_of_cvi: cv + 7.5 });
    await ctx.app.deps.recompute.settle();
    const copied = await open(mine.id, owner.headers);
    expect(copied.lines).toEqual(original.lines);
    expect(copied.kept).toEqual(original.kept);
    expect(copied.changes.some((c) => c.line === 1 && c.what === 'CVI')).toBe(true);
    expect(copied.changes).toEqual((await open(link.id)).changes);
    // The link menu is still a link menu, nobody's, and opens for everyone.
    expect((await open(link.id, owner.headers)).menu).toMatchObject({
      owned: false,
      mine: false,
      name: null,
    });
    // The owner may rename the copy; the link menu stays unchangeable.
    const put = await ctx.app.inject({
      method: 'PUT',
      url: `/api/v1/menus/${mine.id}`,
      payload: { version: mine.version, name: 'Renamed' },
      headers: owner.headers,
    });
    expect(put.statusCode).toBe(200);
  });

  it('format=xlsx gives the sheet naming the date the menu was kept', async () => {
    const menu = await saved({ tests: TESTS });
    const res = await ctx.app.inject({ url: `/api/v1/menus/${menu.id}?format=xlsx` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain(
      `bvdb_test_menu_kept_${menu.kept_at.slice(0, 10)}_on_`,
    );
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    expect(wb.worksheets[0]!.rowCount).toBe(4);
    const notes = JSON.stringify(wb.getWorksheet('Read me')!.getSheetValues());
    expect(notes).toContain('Menu kept on');
    expect(notes).toContain(menu.kept_at);
    expect(notes).toContain(menu.url);
  });

  it('the sweep deletes link menus not opened for 13 months; named menus stay; opening keeps a link alive', async () => {
    const db = ctx.database.db;
    const old = await saved({ tests: TESTS });
    const recent = await saved({ tests: TESTS });
    const opened = await saved({ tests: TESTS });
    const owner = await signInAsNewCurator(ctx.app);
    const named = await saved({ tests: TESTS, name: 'Kept forever' }, owner.headers);
    const ago = (months: number) => {
      const d = new Date();
      d.setUTCMonth(d.getUTCMonth() - months);
      return d;
    };
    await db
      .update(menus)
      .set({ openedAt: ago(14) })
      .where(eq(menus.id, old.id));
    await db
      .update(menus)
      .set({ openedAt: ago(12) })
      .where(eq(menus.id, recent.id));
    await db
      .update(menus)
      .set({ openedAt: ago(14) })
      .where(eq(menus.id, opened.id));
    await db
      .update(menus)
      .set({ openedAt: ago(30) })
      .where(eq(menus.id, named.id));
    await open(opened.id);
    expect(await sweepLinkMenus({ db })).toBeGreaterThanOrEqual(1);
    const left = new Set((await db.select({ id: menus.id }).from(menus)).map((r) => r.id));
    expect(left.has(old.id)).toBe(false);
    expect(left.has(recent.id)).toBe(true);
    expect(left.has(opened.id)).toBe(true);
    expect(left.has(named.id)).toBe(true);
  });
});
