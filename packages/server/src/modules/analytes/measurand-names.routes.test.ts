import fs from 'node:fs';
import { MeasurandNamesSchema, MenuResponseSchema } from '@bvdb/contract';
import { MenuCatalogue, measurandNameKey, measurandNameKeys } from '@bvdb/domain';
import fc from 'fast-check';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analytes, auditLog, measurandNames } from '../../db/schema.js';
import { readCsvObjects } from '../../seed/demo-data.js';
import { createSignedInTestApp, type SignedIn } from '../../test/sign-in.js';
import type { TestContext } from '../../test/test-app.js';

let ctx: TestContext;
let s: SignedIn;
beforeAll(async () => {
  ({ ctx, s } = await createSignedInTestApp());
});
afterAll(async () => ctx.close());

const idOf = async (displayName: string) =>
  (await ctx.database.db.select().from(analytes).where(eq(analytes.displayName, displayName)))[0]!.id;
const get = async (id: number) =>
  MeasurandNamesSchema.parse((await ctx.app.inject({ url: `/api/v1/measurands/${id}/names` })).json());
const put = (id: number, payload: object, headers: Record<string, string> = s.headers) =>
  ctx.app.inject({ method: 'PUT', url: `/api/v1/measurands/${id}/names`, payload, headers });
const menu = async (name: string) =>
  MenuResponseSchema.parse(
    (await ctx.app.inject({ method: 'POST', url: '/api/v1/menu', payload: { tests: [{ name }] } })).json(),
  ).tests[0]!;

describe('the alternative names of a measurand (issue 42.1, decision 083)', () => {
  it('are seeded from seed-data for the demo measurands, with their source, and read by anyone', async () => {
    const ft4 = await get(await idOf('Free thyroxine (FT4)'));
    expect(ft4.names.map((n) => n.name)).toEqual(expect.arrayContaining(['Free T4', 'FT4']));
    expect(ft4.names[0]!.source).toMatch(/LOINC 3024-7/);
    expect((await ctx.app.inject({ url: '/api/v1/measurands/999999/names' })).statusCode).toBe(404);
  });

  it('are replaced by a curator with the version seen; the menu matches by the new name at once', async () => {
    const id = await idOf('Urea');
    const before = await get(id);
    expect((await menu('Carbamide')).status).not.toBe('matched');
    const anon = await put(id, { names: ['Carbamide'], version: before.version }, {});
    expect(anon.statusCode).toBe(401);
    const noCsrf = await put(id, { names: ['Carbamide'], version: before.version }, { cookie: s.cookie });
    expect(noCsrf.statusCode).toBe(403);
    const res = await put(id, {
      names: [...before.names.map((n) => n.name), ' Carbamide '],
      version: before.version,
    });
    expect(res.statusCode, res.body).toBe(200);
    const after = MeasurandNamesSchema.parse(res.json());
    expect(after.version).toBe(before.version + 1);
    expect(after.names.at(-1)).toEqual({ name: 'Carbamide', source: null });
    // The seeded names keep their source.
    expect(after.names[0]!.source).toBe(before.names[0]!.source);
    const t = await menu('carbamide');
    expect(t.status).toBe('matched');
    expect(t.match!.display_name).toBe('Urea');
    const audit = await ctx.database.db.select().from(auditLog).where(eq(auditLog.entity, 'measurand'));
    expect(audit.at(-1)).toMatchObject({ entityId: id, action: 'update' });
    // A stale version is refused with the names as they are now.
    const stale = await put(id, { names: [], version: before.version });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().current.version).toBe(after.version);
  });

  it('refuses a name that is another measurand’s (409) and two names that are one (400), with clear messages', async () => {
    const id = await idOf('Sodium');
    const { version } = await get(id);
    const other = await put(id, { names: ['Na', 'free t-4'], version });
    expect(other.statusCode).toBe(409);
    expect(other.json().message).toMatch(
      /"free t-4" is already a name of another measurand: Free thyroxine \(FT4\)/,
    );
    const display = await put(id, { names: ['Potassium'], version });
    expect(display.statusCode).toBe(409);
    expect(display.json().message).toMatch(/Potassium/);
    // Another measurand's abbreviation, written in its name: "ALT" is Alanine aminotransferase (ALT)'s.
    const abbreviation = await put(id, { names: ['alt'], version });
    expect(abbreviation.statusCode).toBe(409);
    expect(abbreviation.json().message).toMatch(/Alanine aminotransferase \(ALT\)/);
    const twice = await put(id, { names: ['Natrium', 'NATRIUM'], version });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().message).toMatch(/"Natrium" and "NATRIUM" are the same name/);
    const noise = await put(id, { names: ['total'], version });
    expect(noise.statusCode).toBe(400);
    const bad = await put(id, { names: 'Na', version });
    expect(bad.statusCode).toBe(400);
    expect((await get(id)).version).toBe(version);
  });
});

describe('the seeded alternative names (property: no two measurands share one)', () => {
  const seed = readCsvObjects(
    fs.readFileSync(new URL('../../../seed-data/measurand_names_seed.csv', import.meta.url), 'utf8'),
  );
  const studies = readCsvObjects(
    fs.readFileSync(new URL('../../../seed-data/bv_studies_seed.csv', import.meta.url), 'utf8'),
  );

  it('every demo measurand has names, each with a source', () => {
    const measurands = new Set(studies.map((r) => r.measurand!));
    expect(new Set(seed.map((r) => r.measurand!))).toEqual(measurands);
    for (const r of seed) expect(r.source, r.name).toMatch(/\S/);
  });

  it('no key names two measurands: not two names, nor a name and another measurand’s own name', () => {
    const owner = new Map<string, string>();
    for (const r of seed) {
      const key = measurandNameKey(r.name!);
      expect(key, r.name).not.toBe('');
      const before = owner.get(key);
      expect(
        before === undefined || before === r.measurand ? null : `${r.name}: ${before} and ${r.measurand}`,
      ).toBeNull();
      owner.set(key, r.measurand!);
    }
    // Nor is a seeded name another measurand's name, its name without the qualifier or its
    // abbreviation, unless its own measurand's name gives the same key.
    const measurands = [...new Set(studies.map((r) => r.measurand!))];
    for (const r of seed) {
      const key = measurandNameKey(r.name!);
      if (measurandNameKeys(r.measurand!).includes(key)) continue;
      const others = measurands.filter((m) => m !== r.measurand && measurandNameKeys(m).includes(key));
      expect(others, `${r.name} (${r.measurand})`).toEqual([]);
    }
  });

  it('a stored name, its abbreviation and their spellings resolve to their measurand alone', () => {
    const measurands = [...new Set(studies.map((r) => r.measurand!))];
    const catalogue = new MenuCatalogue(
      measurands.map((m, i) => ({
        measurandId: i + 1,
        displayName: m,
        names: [m, ...seed.filter((r) => r.measurand === m).map((r) => r.name!)],
        codes: [],
        matrices: ['Serum'],
      })),
    );
    const written = [
      ...measurands.map((m, i): [string, number] => [m, i + 1]),
      ...seed.map((r): [string, number] => [r.name!, measurands.indexOf(r.measurand!) + 1]),
    ];
    const variant = fc.record({
      upper: fc.boolean(),
      hyphens: fc.boolean(),
      reverse: fc.boolean(),
      british: fc.boolean(),
      noise: fc.constantFrom('', ', total', ' serum', ' (mmol/L)', ' U/L'),
    });
    fc.assert(
      fc.property(fc.constantFrom(...written), variant, ([name, id], v) => {
        let text = name;
        if (v.british) text = text.replace(/hemo/gi, 'haemo').replace(/ized/g, 'ised');
        if (v.reverse && !/[()]/.test(text)) text = text.split(' ').reverse().join(' ');
        if (v.hyphens) text = text.replace(/-/g, ' ');
        text += v.noise;
        if (v.upper) text = text.toUpperCase();
        const fits = catalogue.fitting(text).map((e) => e.measurandId);
        expect(fits, `"${text}" (from "${name}")`).toEqual([id]);
      }),
      { numRuns: 2000 },
    );
  });

  it('all loaded: one row per seed line', async () => {
    const rows = await ctx.database.db.select().from(measurandNames);
    expect(rows.length).toBeGreaterThanOrEqual(seed.length);
  });
});
