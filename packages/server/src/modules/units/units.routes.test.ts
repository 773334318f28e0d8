import { isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bvSpecifications } from '../../db/schema.js';
import { createSignedInTestApp, type SignedIn } from '../../test/sign-in.js';
import type { TestContext } from '../../test/test-app.js';

let ctx: TestContext;
let s: SignedIn;
beforeAll(async () => {
  ({ ctx, s } = await createSignedInTestApp());
});
afterAll(async () => ctx.close());

interface Unit {
  id: number;
  name: string;
  usage_count: number;
  version: number;
}
const list = async () =>
  (await ctx.app.inject({ url: '/api/units', headers: { cookie: s.cookie } })).json<{ data: Unit[] }>().data;

describe('units', () => {
  it('lists units with how many datasets use each (as unit or second unit); signed-in only', async () => {
    expect((await ctx.app.inject({ url: '/api/units' })).statusCode).toBe(401);
    const specs = await ctx.database.db
      .select()
      .from(bvSpecifications)
      .where(isNotNull(bvSpecifications.unitId));
    const expected = new Map<number, number>();
    for (const d of specs) {
      for (const id of new Set([d.unitId, d.secondUnitId].filter((x): x is number => x !== null))) {
        expected.set(id, (expected.get(id) ?? 0) + 1);
      }
    }
    const units = await list();
    expect(units.length).toBeGreaterThan(0);
    for (const u of units)
      expect({ id: u.id, n: u.usage_count }).toEqual({ id: u.id, n: expected.get(u.id) ?? 0 });
  });

  it('adds a unit (201, audited), refuses a duplicate (409) and an empty name (400)', async () => {
    const anon = await ctx.app.inject({ method: 'POST', url: '/api/units', payload: { name: 'µkat/L' } });
    expect(anon.statusCode).toBe(401);
    const noCsrf = await ctx.app.inject({
      method: 'POST',
      url: '/api/units',
      payload: { name: 'µkat/L' },
      headers: { cookie: s.cookie },
    });
    expect(noCsrf.statusCode).toBe(403);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/units',
      payload: { name: ' µkat/L ' },
      headers: s.headers,
    });
    expect(res.statusCode).toBe(201);
    const unit = res.json<{ unit: Unit }>().unit;
    expect(unit).toMatchObject({ name: 'µkat/L', usage_count: 0, version: 1 });
    const dup = await ctx.app.inject({
      method: 'POST',
      url: '/api/units',
      payload: { name: 'µkat/L' },
      headers: s.headers,
    });
    expect(dup.statusCode).toBe(409);
    expect(dup.json<{ message: string }>().message).toBe('A unit named "µkat/L" already exists');
    const empty = await ctx.app.inject({
      method: 'POST',
      url: '/api/units',
      payload: { name: '' },
      headers: s.headers,
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json<{ fields: unknown[] }>().fields).toContainEqual({
      path: 'body.name',
      message: 'Name is required',
    });
    const audit = await ctx.app.inject({ url: `/api/audit/unit/${unit.id}`, headers: { cookie: s.cookie } });
    expect(audit.json<{ data: { action: string }[] }>().data.map((e) => e.action)).toEqual(['create']);
  });

  it('renames with the current version; a stale version is refused with 409 and nothing overwritten', async () => {
    const created = (
      await ctx.app.inject({
        method: 'POST',
        url: '/api/units',
        payload: { name: 'test-unit-a' },
        headers: s.headers,
      })
    ).json<{ unit: Unit }>().unit;
    const ok = await ctx.app.inject({
      method: 'PUT',
      url: `/api/units/${created.id}`,
      payload: { name: 'test-unit-b', version: 1 },
      headers: s.headers,
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json<{ unit: Unit }>().unit).toMatchObject({ name: 'test-unit-b', version: 2 });
    const stale = await ctx.app.inject({
      method: 'PUT',
      url: `/api/units/${created.id}`,
      payload: { name: 'test-unit-c', version: 1 },
      headers: s.headers,
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ current: { name: 'test-unit-b', version: 2 } });
    expect((await list()).find((u) => u.id === created.id)).toMatchObject({
      name: 'test-unit-b',
      version: 2,
    });
    const clash = await ctx.app.inject({
      method: 'PUT',
      url: `/api/units/${created.id}`,
      payload: { name: 'µkat/L', version: 2 },
      headers: s.headers,
    });
    expect(clash.statusCode).toBe(409);
    const audit = await ctx.app.inject({
      url: `/api/audit/unit/${created.id}`,
      headers: { cookie: s.cookie },
    });
    expect(audit.json<{ data: { action: string; changed: string[] }[] }>().data[0]).toMatchObject({
      action: 'update',
      changed: ['name'],
    });
  });

  it('refuses a delete without ?version= (400 naming it), as an edit without one; the unit stays', async () => {
    const unit = (
      await ctx.app.inject({
        method: 'POST',
        url: '/api/units',
        payload: { name: 'unversioned-delete' },
        headers: s.headers,
      })
    ).json<{ unit: Unit }>().unit;
    const res = await ctx.app.inject({ method: 'DELETE', url: `/api/units/${unit.id}`, headers: s.headers });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toMatch(/version is required/);
    expect((await list()).some((u) => u.id === unit.id)).toBe(true);
  });

  it('deletes with ?version= only when nobody renamed the unit since (409 with the current one)', async () => {
    const unit = (
      await ctx.app.inject({
        method: 'POST',
        url: '/api/units',
        payload: { name: 'versioned-unit' },
        headers: s.headers,
      })
    ).json<{ unit: Unit }>().unit;
    await ctx.app.inject({
      method: 'PUT',
      url: `/api/units/${unit.id}`,
      payload: { name: 'versioned-unit-2', version: 1 },
      headers: s.headers,
    });
    const stale = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/units/${unit.id}?version=1`,
      headers: s.headers,
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ current: { name: 'versioned-unit-2', version: 2 } });
    expect((await list()).some((u) => u.id === unit.id)).toBe(true);
    const ok = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/units/${unit.id}?version=2`,
      headers: s.headers,
    });
    expect(ok.statusCode).toBe(200);
    expect((await list()).some((u) => u.id === unit.id)).toBe(false);
  });

  it('deletes an unused unit; refuses one in use with a message naming how many datasets', async () => {
    const used = (await list()).find((u) => u.usage_count > 0)!;
    const refused = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/units/${used.id}?version=${used.version}`,
      headers: s.headers,
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json<{ message: string }>().message).toBe(
      `The unit "${used.name}" cannot be deleted: ${used.usage_count} dataset${used.usage_count === 1 ? ' uses' : 's use'} it. Change those datasets first.`,
    );
    const spare = (
      await ctx.app.inject({
        method: 'POST',
        url: '/api/units',
        payload: { name: 'spare' },
        headers: s.headers,
      })
    ).json<{ unit: Unit }>().unit;
    expect((await ctx.app.inject({ method: 'DELETE', url: `/api/units/${spare.id}` })).statusCode).toBe(401);
    const ok = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/units/${spare.id}?version=${spare.version}`,
      headers: s.headers,
    });
    expect(ok.json()).toEqual({ code: 'success' });
    expect((await list()).some((u) => u.id === spare.id)).toBe(false);
    expect(
      (
        await ctx.app.inject({
          method: 'DELETE',
          url: `/api/units/${spare.id}?version=${spare.version}`,
          headers: s.headers,
        })
      ).statusCode,
    ).toBe(404);
    // The public lookups (used by forms) follow at once: the read cache was dropped.
    const lookups = (await ctx.app.inject({ url: '/api/lookups' })).json<{ units: { name: string }[] }>();
    expect(lookups.units.map((u) => u.name)).toContain('µkat/L');
    expect(lookups.units.map((u) => u.name)).not.toContain('spare');
  });
});
