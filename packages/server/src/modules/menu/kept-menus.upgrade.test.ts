import { KeptMenuResponseSchema } from '@bvdb/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { openDatabase } from '../../db/client.js';
import { seedDatabase } from '../../seed/seed.js';
import { testConfig } from '../../test/test-app.js';
import { upgradeTarget } from '../../test/upgrade-target.js';

/**
 * Migration 0017 (decision 101) on a database of the previous release with a kept menu: the menu
 * stays, global (population null), and opens as before. On PGlite a folder on disk; on PostgreSQL
 * (TEST_DATABASE_URL) a database of its own.
 */
const target = upgradeTarget('upgrade-menus');
const openOptions = target.openOptions;
afterAll(() => target.remove());

const ID = 'KeptBefore0017xxxxxxxx';
const KEPT = [
  {
    line: 1,
    label: 'Not a test we know',
    match: null,
    cvi: null,
    cvg: null,
    specs: null,
    aps_met: null,
    sigma: null,
    rcv: null,
    ii: null,
    ii_with_cva: null,
    prri_useful: null,
  },
];

describe('kept menus after an upgrade to migration 0017', () => {
  it('a menu kept before stays global: population null, opened judged with the global estimates', async () => {
    await target.create();
    // The previous release: migrations up to 0016, a link menu kept.
    const old = await openDatabase(openOptions());
    await seedDatabase(old.db, {
      demo: false,
      adminEmail: 'admin@example.org',
      adminPassword: 'pw-123456789',
    });
    await old.execute('alter table menus drop column population');
    await old.execute(
      'delete from drizzle.__drizzle_migrations where id in (select id from drizzle.__drizzle_migrations order by created_at desc limit 1)',
    );
    await old.execute(
      `insert into menus (id, level, probability, test_count, lines, kept_values)
       values ('${ID}', 'desirable', 0.95, 1, '[{"name":"Not a test we know"}]', '${JSON.stringify(KEPT)}')`,
    );
    await old.close();

    let applied: string[] = [];
    const database = await openDatabase({ ...openOptions(), onMigrated: (tags) => (applied = tags) });
    try {
      expect(applied).toEqual(['0017_kept-menu-population']);
      const rows = (await database.execute(`select population from menus where id = '${ID}'`)).rows;
      expect(rows).toEqual([{ population: null }]);
      const app = await buildApp({ config: testConfig(), database });
      await app.ready();
      try {
        const res = await app.inject({ url: `/api/v1/menus/${ID}` });
        expect(res.statusCode, res.body).toBe(200);
        const opened = KeptMenuResponseSchema.parse(res.json());
        expect(opened.menu.population).toBeNull();
        expect(opened.sheet.population).toBeUndefined();
        expect(opened.kept).toEqual(KEPT);
        expect(opened.changes).toEqual([]);
      } finally {
        await app.close();
      }
    } finally {
      await database.close();
    }
  });
});
