import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { openDatabase } from '../../db/client.js';
import { seedDatabase } from '../../seed/seed.js';
import { testConfig } from '../../test/test-app.js';
import { upgradeTarget } from '../../test/upgrade-target.js';
import { countAllVersions } from './estimates.service.js';

/**
 * An upgrade of a previous release's data folder (issue 29.3): a database with results at migration
 * 0005 (the demo, with the history and change-feed objects and their migration records taken away,
 * which is exactly what the previous release left), opened by this release. On PGlite a folder on disk; on
 * PostgreSQL (TEST_DATABASE_URL) a database of its own.
 */
const target = upgradeTarget('upgrade');
const openOptions = target.openOptions;
afterAll(() => target.remove());

interface Meta {
  id: number;
  analyte_id: number;
  median: number;
  method: string;
  number_used: number;
  updated_at: string;
}

describe('initial versions after an upgrade from the previous release (migration 0006)', () => {
  it('every stored result gets an estimate with version 1 (initial, system), dated when it last changed', async () => {
    await target.create();
    // The previous release's folder: the demo with results, at migration 0005.
    const old = await openDatabase(openOptions());
    await seedDatabase(old.db, {
      demo: true,
      adminEmail: 'admin@example.org',
      adminPassword: 'test-password-123',
    });
    // This release's migrations taken away: 0017 (kept menus' population, decision 101; its column
    // goes with the menus table dropped below), 0016 (local estimates' versions, decision 100; the table
    // dropped below holds its columns), 0015 (datasets' evidence class, decision 099), 0014 (local
    // estimates, decision 095), 0013 (measurands'
    // codes, decision 091), 0012
    // (measurands' alternative names, decision 083),
    // 0011 (kept test menus, decision 064), 0010 (release
    // files in pieces) and 0008 (releases, decision 058), 0009 (raw-data files, decision 062), 0007
    // (the change feed, decision 056), then 0006.
    await old.execute('alter table bv_specifications drop column evidence_class');
    await old.execute('drop table local_estimates');
    await old.execute('drop table measurand_codes');
    await old.execute('drop table measurand_names');
    await old.execute('drop function change_log_measurand_names()');
    await old.execute('drop table menus');
    await old.execute('drop table release_file_chunks');
    await old.execute('drop table dataset_raw_files');
    await old.execute('drop table release_mailings');
    await old.execute('drop table release_files');
    await old.execute('drop table releases');
    for (const [trigger, table] of [
      ['change_log_bv_specifications', 'bv_specifications'],
      ['change_log_references', '"references"'],
      ['change_log_analytes', 'analytes'],
    ])
      await old.execute(`drop trigger ${trigger} on ${table}`);
    await old.execute('drop table change_log');
    await old.execute('drop sequence change_log_cursor_seq');
    await old.execute('drop table estimate_versions');
    await old.execute('drop table estimates');
    for (const fn of [
      'change_log_seal',
      'change_log_estimate_version',
      'change_log_dataset',
      'change_log_record',
    ])
      await old.execute(`drop function ${fn}()`);
    await old.execute(
      'delete from drizzle.__drizzle_migrations where id in (select id from drizzle.__drizzle_migrations order by created_at desc limit 12)',
    );
    // Results that changed at different moments before the upgrade.
    await old.execute(`update meta_calculations set updated_at = '2025-03-01T10:00:00Z' where id % 2 = 0`);
    await old.execute(`update meta_calculations set updated_at = '2025-06-01T10:00:00Z' where id % 2 = 1`);
    const metas = (
      await old.execute(
        'select id, analyte_id, median, method, number_used, updated_at from meta_calculations where median is not null order by id',
      )
    ).rows as Meta[];
    expect(metas.length).toBeGreaterThan(20);
    await old.close();

    let applied: string[] = [];
    const database = await openDatabase({ ...openOptions(), onMigrated: (tags) => (applied = tags) });
    try {
      expect(applied).toEqual([
        '0006_estimate-history',
        '0007_change-feed',
        '0008_releases',
        '0009_dataset-raw-files',
        '0010_release-file-chunks',
        '0011_kept-menus',
        '0012_measurand-names',
        '0013_measurand-codes',
        '0014_local-estimates',
        '0015_evidence-class',
        '0016_local-estimate-versions',
        '0017_kept-menu-population',
      ]);
      expect(await countAllVersions(database.db)).toBe(metas.length);
      const app = await buildApp({ config: testConfig(), database });
      await app.ready();
      try {
        const analyteId = metas[0]!.analyte_id;
        const body = (await app.inject({ url: `/api/v1/measurands/${analyteId}/metas` })).json<{
          metas: { id: number; estimate_id: number; version: number; median: number }[];
        }>();
        for (const m of body.metas) {
          expect(m.version).toBe(1);
          const h = (await app.inject({ url: `/api/v1/estimates/${m.estimate_id}/history` })).json<{
            data: {
              version: number;
              median: number;
              computed_at: string;
              cause: unknown;
              datasets: unknown[];
            }[];
          }>();
          const stored = metas.find((x) => x.id === m.id)!;
          expect(h.data).toEqual([
            expect.objectContaining({
              version: 1,
              median: stored.median,
              computed_at: new Date(stored.updated_at).toISOString(),
              cause: { kind: 'initial', role: 'system' },
            }),
          ]);
          expect(h.data[0]!.datasets.length).toBeGreaterThan(0);
        }
        // The site showed them from their last change: as_of before it is a 404, after it an answer.
        const even = metas.find((x) => x.analyte_id === analyteId)!;
        const at = new Date(even.updated_at).toISOString().slice(0, 10);
        expect(
          (await app.inject({ url: `/api/v1/measurands/${analyteId}/metas?as_of=2025-01-01` })).statusCode,
        ).toBe(404);
        expect(
          (await app.inject({ url: `/api/v1/measurands/${analyteId}/metas?as_of=${at}` })).statusCode,
        ).toBe(200);
        // A full recompute after the upgrade gives the same numbers: no new version.
        await database.db.transaction((tx) =>
          app.deps.recompute.request(tx, { cause: { kind: 'lookup', role: 'system' } }),
        );
        await app.deps.recompute.settle();
        expect(await countAllVersions(database.db)).toBe(metas.length);
      } finally {
        await app.close();
      }
    } finally {
      await database.close();
    }
  }, 120_000);
});
