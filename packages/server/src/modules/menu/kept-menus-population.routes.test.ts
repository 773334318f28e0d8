import ExcelJS from 'exceljs';
import { KeptMenuResponseSchema, KeptMenuSchema, MenuResponseSchema, type KeptMenu } from '@bvdb/contract';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { menus } from '../../db/schema.js';
import { analyteIdByName } from '../../test/analytes.js';
import { makeAthletesOfCholesterol } from '../../test/athletes-population.js';
import { signInAsNewCurator } from '../../test/edit-dataset.js';
import { visitorHeaders } from '../../test/sign-in.js';
import { useTestApp } from '../../test/test-app.js';

/**
 * A kept menu keeps the population it was judged for (issue 47.3, decision 101). Runs on PGlite,
 * and on PostgreSQL when TEST_DATABASE_URL names a server.
 */
const ctx = useTestApp();
let cholId: number;

const TESTS = [
  { name: 'Cholesterol (total)', cva: 2, bias: 1 },
  { name: 'Alanine aminotransferase (ALT)', cva: 4, bias: 2 },
];
const ATHLETES = {
  selection: { state: ['athletes'] },
  key: 'state=athletes',
  label: 'athletes',
  sentence: 'Population: athletes — recomputed per measurand from its matching studies',
};

beforeAll(async () => {
  cholId = await analyteIdByName(ctx.app, 'Cholesterol (total)');
  await makeAthletesOfCholesterol(ctx.database.db, cholId);
});

const visitor = () => visitorHeaders(ctx.app);

const save = async (payload: object, headers?: Record<string, string>) =>
  ctx.app.inject({ method: 'POST', url: '/api/v1/menus', payload, headers: headers ?? (await visitor()) });

async function saved(payload: object, headers?: Record<string, string>): Promise<KeptMenu> {
  const res = await save(payload, headers);
  expect(res.statusCode, res.body).toBe(201);
  return KeptMenuSchema.parse(res.json());
}

const open = async (id: string) => {
  const res = await ctx.app.inject({ url: `/api/v1/menus/${id}` });
  expect(res.statusCode, res.body).toBe(200);
  return KeptMenuResponseSchema.parse(res.json());
};

/** The fresh menu's sheet, as POST /api/v1/menu answers it. */
async function fresh(query: string) {
  const res = await ctx.app.inject({
    method: 'POST',
    url: `/api/v1/menu${query}`,
    payload: { tests: TESTS },
  });
  expect(res.statusCode, res.body).toBe(200);
  return MenuResponseSchema.parse(res.json());
}

/** A sheet's tests without the moment each global estimate is linked at (`as_of`, the sheet's time). */
const atAnyMoment = (tests: unknown): unknown =>
  JSON.parse(JSON.stringify(tests).replace(/as_of=[^"&]*/g, 'as_of=…'));

const storedPopulation = async (id: string) =>
  (await ctx.database.db.select({ p: menus.population }).from(menus).where(eq(menus.id, id)))[0]!.p;

describe('kept menus for a population (decision 101)', () => {
  it('keeps the population: opened again, every line is judged for it, as a fresh menu with the same facets', async () => {
    const menu = await saved({ tests: TESTS, 'facet.state': 'athletes' });
    expect(menu.population).toEqual(ATHLETES);
    expect(await storedPopulation(menu.id)).toEqual({ state: ['athletes'] });

    const again = await open(menu.id);
    expect(again.menu.population).toEqual(ATHLETES);
    const sheet = await fresh('?facet.state=athletes');
    expect(again.sheet.population).toEqual(sheet.population);
    expect(again.sheet.tests).toEqual(sheet.tests);
    // Every line says the population (a line with no estimate for it says so, never the global one).
    expect(again.sheet.tests.map((t) => t.population?.key)).toEqual(['state=athletes', 'state=athletes']);
    expect(again.sheet.tests[1]!.population!.note).toBe('No estimate for this population');
    expect(again.sheet.tests[1]!.estimate).toBeNull();

    // The values were kept for the population: the same as today's, and not the global estimate's.
    const chol = again.sheet.tests[0]!;
    expect(again.kept[0]!.cvi).toEqual({
      estimate_id: null,
      version: null,
      median: chol.estimate!.median,
      lower: chol.estimate!.lower,
      upper: chol.estimate!.upper,
      n: chol.estimate!.number_used,
    });
    const global = (await fresh('')).tests[0]!.estimate!;
    expect(global.median).not.toBe(chol.estimate!.median);
    expect(again.changes).toEqual([]);
  });

  it('a menu kept without facets stays global: no population, the stored estimates', async () => {
    const menu = await saved({ tests: TESTS });
    expect(menu.population).toBeNull();
    expect(await storedPopulation(menu.id)).toBeNull();
    const res = await ctx.app.inject({ url: `/api/v1/menus/${menu.id}` });
    const again = KeptMenuResponseSchema.parse(res.json());
    expect(again.sheet.population).toBeUndefined();
    expect(again.sheet.tests.every((t) => t.population === undefined)).toBe(true);
    expect(atAnyMoment(again.sheet.tests)).toEqual(atAnyMoment((await fresh('')).tests));
    expect(again.kept[0]!.cvi!.estimate_id).toEqual(expect.any(Number));
    expect(again.changes).toEqual([]);
  });

  it('an unknown facet value is a 400 naming the allowed ones, and nothing is kept', async () => {
    const count = async () =>
      Number((await ctx.database.db.select({ n: sql<number>`count(*)` }).from(menus))[0]!.n);
    const n = await count();
    const res = await save({ tests: TESTS, 'facet.interval': 'fortnights' });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toBe(
      'facet.interval: "fortnights" is not a value of this facet; allowed: days, weeks, months',
    );
    expect((await save({ tests: TESTS, 'facet.colour': 'blue' })).statusCode).toBe(400);
    expect(await count()).toBe(n);
  });

  it('the workbook of a kept population menu says the population on every row and in its notes', async () => {
    const menu = await saved({ tests: TESTS, 'facet.state': ['athletes'] });
    const res = await ctx.app.inject({ url: `/api/v1/menus/${menu.id}?format=xlsx` });
    expect(res.statusCode).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = wb.worksheets[0]!;
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(header.at(-1)).toBe('Population');
    const at = header.length;
    expect(sheet.getRow(2).getCell(at).text).toMatch(/^Population: athletes — recomputed from \d+ studies$/);
    expect(sheet.getRow(3).getCell(at).text).toBe(
      'Population: athletes — no estimate for this population (no eligible study matches)',
    );
    const texts = wb.worksheets.flatMap((w) => w.getSheetValues().flat(2).map(String));
    expect(texts).toContain(ATHLETES.sentence);
  });

  it('a copy keeps the population and its kept values; with facets sent it is judged for them instead', async () => {
    const link = await saved({ tests: TESTS, 'facet.state': 'athletes' });
    const owner = await signInAsNewCurator(ctx.app);
    const copy = (payload: object) =>
      ctx.app.inject({
        method: 'POST',
        url: `/api/v1/menus/${link.id}/copies`,
        payload,
        headers: owner.headers,
      });

    const kept = await copy({ name: 'Athletes' });
    expect(kept.statusCode, kept.body).toBe(201);
    const mine = KeptMenuSchema.parse(kept.json());
    expect(mine).toMatchObject({ population: ATHLETES, kept_at: link.kept_at });
    const opened = await open(mine.id);
    expect(opened.kept).toEqual((await open(link.id)).kept);
    expect(opened.sheet.tests).toEqual((await fresh('?facet.state=athletes')).tests);

    expect((await copy({ name: 'Bad', 'facet.sex': 'neither' })).statusCode).toBe(400);

    const global = KeptMenuSchema.parse((await copy({ name: 'Everyone', 'facet.state': [] })).json());
    expect(global.population).toBeNull();
    const openedGlobal = await open(global.id);
    expect(atAnyMoment(openedGlobal.sheet.tests)).toEqual(atAnyMoment((await fresh('')).tests));
    expect(openedGlobal.changes).toEqual([]);
    // The original is untouched.
    expect((await open(link.id)).menu.population).toEqual(ATHLETES);
  });

  it('the owner changes a named menu’s population: today’s values kept for it, listed with it', async () => {
    const owner = await signInAsNewCurator(ctx.app);
    const menu = await saved({ tests: TESTS, name: 'Chemistry' }, owner.headers);
    const put = (payload: object) =>
      ctx.app.inject({ method: 'PUT', url: `/api/v1/menus/${menu.id}`, payload, headers: owner.headers });

    expect((await put({ version: menu.version, 'facet.state': 'nobody-at-all' })).statusCode).toBe(400);
    const changed = await put({ version: menu.version, 'facet.state': 'athletes' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(KeptMenuSchema.parse(changed.json()).population).toEqual(ATHLETES);
    const opened = await open(menu.id);
    expect(opened.sheet.tests).toEqual((await fresh('?facet.state=athletes')).tests);
    expect(opened.kept[0]!.cvi!.estimate_id).toBeNull();
    expect(opened.changes).toEqual([]);

    // A rename keeps the population.
    const renamed = await put({ version: menu.version + 1, name: 'Chemistry, athletes' });
    expect(KeptMenuSchema.parse(renamed.json()).population).toEqual(ATHLETES);
    const list = await ctx.app.inject({ url: '/api/v1/menus', headers: owner.headers });
    expect(list.json<{ data: KeptMenu[] }>().data.map((m) => m.population)).toEqual([ATHLETES]);

    // All facets empty: back to the global estimates.
    const back = await put({ version: menu.version + 2, 'facet.state': [] });
    expect(KeptMenuSchema.parse(back.json()).population).toBeNull();
    expect(await storedPopulation(menu.id)).toBeNull();
    expect((await open(menu.id)).kept[0]!.cvi!.estimate_id).toEqual(expect.any(Number));
  });
});
