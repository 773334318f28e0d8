import { MenuResponseSchema } from '@bvdb/contract';
import { and, eq, isNotNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { bvSpecifications } from '../../db/schema.js';
import { serviceDeps } from '../../lib/service-deps.js';
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
import { MenuDataSource, type MenuData } from './menu-data.js';

// The menu's catalogue follows the change log (decision 066): a write makes the next menu read only
// the measurands it touched, and what it then holds is what reading everything would give.

const ctx = useTestApp();

/** What a menu is matched and judged against, in a comparable form. */
function snapshot(data: MenuData) {
  const ids = [...data.catalogue.byId.keys()].sort((a, b) => a - b);
  const names = new Set<string>();
  const codes = new Set<string>();
  for (const id of ids) {
    const e = data.catalogue.byId.get(id)!;
    e.names.forEach((n) => names.add(n));
    e.codes.forEach((c) => codes.add(c));
  }
  const who = (list: { measurandId: number }[]) => list.map((e) => e.measurandId);
  return {
    entries: ids.map((id) => data.catalogue.byId.get(id)),
    byName: [...names].sort().map((n) => [n, who(data.catalogue.ofName(n))]),
    byCode: [...codes].sort().map((c) => [c, who(data.catalogue.ofCode(c))]),
    groups: [...data.groups.keys()]
      .sort((a, b) => a - b)
      .map((id) => [id, [...data.groups.get(id)!.entries()]]),
    refs: [...data.refs.entries()].sort(([a], [b]) => (a < b ? -1 : 1)),
  };
}

const menu = async (app: FastifyInstance, tests: object[]) => {
  const res = await app.inject({ method: 'POST', url: '/api/v1/menu', payload: { tests } });
  expect(res.statusCode, res.body).toBe(200);
  return MenuResponseSchema.parse(res.json()).tests;
};

describe('the menu catalogue after a write (decision 066)', () => {
  it('a new alternative name, a rename and a deleted measurand: read alone, and the same as reading everything', async () => {
    const deps = serviceDeps(ctx.app);
    // A first request first (on PostgreSQL it adopts the shared counters: every scope moves once).
    expect((await menu(ctx.app, [{ name: 'Natrium zfk' }]))[0]!.status).toBe('unmatched');
    const source = new MenuDataSource(deps);
    await source.current();
    expect(source.lastRefresh).toBe('built');
    const sodium = await findSodium(deps);
    const added = await addAlternateNameAndMeasurand(deps, sodium, 'Natrium zfk', {
      displayName: 'Quokka oxidase',
    });
    try {
      const [byAlt, quokka] = await menu(ctx.app, [{ name: 'Natrium zfk' }, { name: 'Quokka oxidase' }]);
      expect(byAlt!.status).toBe('matched');
      expect(byAlt!.match?.measurand_id).toBe(sodium.id);
      // Known, but without an estimate: unmatched with that reason, not "no measurand has this name".
      expect(quokka!.why).toMatch(/^The measurand .+ has no estimate yet$/);
      const data = await source.current();
      expect(source.lastRefresh).toBe('updated');
      expect(snapshot(data)).toEqual(snapshot(await new MenuDataSource(deps).current()));

      await deleteMeasurandAndRenameSodium(deps, added, sodium);
      const [gone, renamed, old] = await menu(ctx.app, [
        { name: 'Quokka oxidase' },
        { name: 'Natrium' },
        { name: 'Sodium' },
      ]);
      expect(gone!.why).toBe('No measurand has this name');
      expect([renamed!.status, renamed!.match?.measurand_id]).toEqual(['matched', sodium.id]);
      // Found by its full name perhaps, but never under the old display name.
      expect(old!.match?.display_name).not.toBe('Sodium');
      expect(renamed!.match?.display_name).toBe('Natrium');
      expect(snapshot(await source.current())).toEqual(snapshot(await new MenuDataSource(deps).current()));
      expect(source.lastRefresh).toBe('updated');
    } finally {
      await restoreSodium(deps, sodium);
    }
    expect((await menu(ctx.app, [{ name: 'Sodium' }]))[0]!.status).toBe('matched');
  });

  it("a dataset's code, its unpublishing and its results' recompute: the next menu sees each", async () => {
    const deps = serviceDeps(ctx.app);
    const source = new MenuDataSource(deps);
    await source.current();
    const [dataset] = await deps.db
      .select({
        id: bvSpecifications.id,
        analyteId: bvSpecifications.analyteId,
        cv: bvSpecifications.estimatesOfCvi,
      })
      .from(bvSpecifications)
      .where(and(eq(bvSpecifications.published, true), isNotNull(bvSpecifications.estimatesOfCvi)))
      .limit(1);
    const write = (set: Partial<typeof bvSpecifications.$inferInsert>) =>
      writeDataset(deps, dataset!, set, true);
    await write({ loinc: '99999-9' });
    const [byCode] = await menu(ctx.app, [{ code: '99999-9' }]);
    expect([byCode!.status, byCode!.match?.measurand_id]).toEqual(['matched', dataset!.analyteId]);
    const before = snapshot(await source.current());
    expect(source.lastRefresh).toBe('updated');
    expect(before).toEqual(snapshot(await new MenuDataSource(deps).current()));

    // A CV changed: the recompute moves the estimate; the kept groups follow it.
    await write({ estimatesOfCvi: dataset!.cv! * 3 + 1 });
    const after = snapshot(await source.current());
    expect(source.lastRefresh).toBe('updated');
    expect(after.groups).not.toEqual(before.groups);
    expect(after).toEqual(snapshot(await new MenuDataSource(deps).current()));

    await write({ published: false });
    expect((await menu(ctx.app, [{ code: '99999-9' }]))[0]!.status).toBe('unmatched');
    expect(snapshot(await source.current())).toEqual(snapshot(await new MenuDataSource(deps).current()));

    await write({ published: true, loinc: null, estimatesOfCvi: dataset!.cv });
    expect(snapshot(await source.current())).toEqual(snapshot(await new MenuDataSource(deps).current()));
  });
});

// Two processes on one PostgreSQL: the reader's menu follows the writer's commit.
describe.runIf(process.env.TEST_DATABASE_URL)('a write in another process (decision 066)', () => {
  const reader = useSecondProcess(ctx);

  it("the reader's next menu matches the writer's new alternative name", async () => {
    expect((await menu(reader(), [{ name: 'Natrium zfk' }]))[0]!.status).toBe('unmatched');
    await withAlternateNameSeenBy(ctx.app, reader(), 'Natrium zfk', async (sodium) => {
      const [line] = await menu(reader(), [{ name: 'Natrium zfk' }]);
      expect([line!.status, line!.match?.measurand_id]).toEqual(['matched', sodium.id]);
    });
  });
});
