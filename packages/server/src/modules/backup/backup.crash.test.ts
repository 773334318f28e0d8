import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { afterAll, describe, expect, it } from 'vitest';
import { multiplyExport } from '../../bench/multiply-export.js';
import { openDatabase } from '../../db/client.js';
import { RecomputeWorker } from '../recompute-queue/recompute-worker.js';
import { seedDatabase } from '../../seed/seed.js';
import { exportDatabaseJson } from './backup.service.js';

const tsxLoader = createRequire(import.meta.url).resolve('tsx');
const src = (p: string) => JSON.stringify(fileURLToPath(new URL(p, import.meta.url)));
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'bvdb-crash-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const count = async (folder: string) => {
  const database = await openDatabase({ dataDir: folder });
  try {
    const res = await database.execute(
      'select (select count(*) from analytes)::int + (select count(*) from bv_specifications)::int as n',
    );
    return (res.rows[0] as { n: number }).n;
  } finally {
    await database.close();
  }
};

describe('an import interrupted by a crash', () => {
  it('leaves the embedded database as it was (killed with SIGKILL halfway through the transaction)', async () => {
    const source = await openDatabase({ dataDir: 'memory://' });
    await seedDatabase(source.db, { demo: true, adminEmail: 'a@example.org', adminPassword: 'password-123' });
    const file = path.join(root, 'big.json');
    fs.writeFileSync(
      file,
      multiplyExport((await exportDatabaseJson(source.db, 'all', 'command line')).join(''), 3),
    );
    await source.close();
    const folder = path.join(root, 'data');
    const database = await openDatabase({ dataDir: folder });
    await seedDatabase(database.db, {
      demo: false,
      adminEmail: 'a@example.org',
      adminPassword: 'password-123',
    });
    await database.close();

    // The child starts the import and kills itself inside the write transaction, after the deletes
    // and the first inserts (lookups, measurands, references) have run.
    const script = `
      import fs from 'node:fs';
      import { openDatabase } from ${src('../../db/client.ts')};
      import { ResponseCache } from ${src('../../lib/response-cache.ts')};
      import { importDatabaseJson } from ${src('./backup-import.service.ts')};
      const database = await openDatabase({ dataDir: ${JSON.stringify(folder)} });
      const db = database.db;
      const transaction = db.transaction.bind(db);
      db.transaction = (work, config) => transaction(async (tx) => {
        const execute = tx.execute.bind(tx);
        let statements = 0;
        tx.execute = (query) => {
          if (++statements === 30) {
            fs.writeSync(1, 'writing\n');
            process.kill(process.pid, 'SIGKILL');
          }
          return execute(query);
        };
        return work(tx);
      }, config);
      await importDatabaseJson({ db, cache: new ResponseCache() }, fs.readFileSync(${JSON.stringify(file)}, 'utf8'),
        { mode: 'new', allowFull: true });
      console.log('finished');`;
    const child = spawn(process.execPath, ['--import', tsxLoader, '--input-type=module', '-e', script]);
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    await new Promise((resolve) => child.on('close', resolve));
    expect(out).toContain('writing');
    expect(out).not.toContain('finished');
    // The folder opens again (the dead holder's lock is taken over) and holds what it held before.
    expect(await count(folder)).toBe(0);
  }, 180_000);

  it('after the commit of a replace with recompute, leaves the recompute in the outbox; the drain at the next start computes every measurand', async () => {
    const source = await openDatabase({ dataDir: 'memory://' });
    await seedDatabase(source.db, { demo: true, adminEmail: 'a@example.org', adminPassword: 'password-123' });
    const file = path.join(root, 'demo.json');
    fs.writeFileSync(file, (await exportDatabaseJson(source.db, 'all', 'command line')).join(''));
    await source.close();
    const folder = path.join(root, 'recompute');
    const seeded = await openDatabase({ dataDir: folder });
    await seedDatabase(seeded.db, { demo: true, adminEmail: 'a@example.org', adminPassword: 'password-123' });
    const withResults = (
      await seeded.execute('select distinct analyte_id as id from meta_calculations order by 1')
    ).rows.map((r) => (r as { id: number }).id);
    await seeded.close();

    // The child runs the import and kills itself as soon as the import's transaction has committed
    // (the first one that is not the read-only export of the backup), before any recompute.
    const script = `
      import fs from 'node:fs';
      import { openDatabase } from ${src('../../db/client.ts')};
      import { ResponseCache } from ${src('../../lib/response-cache.ts')};
      import { importDatabaseJson } from ${src('./backup-import.service.ts')};
      const database = await openDatabase({ dataDir: ${JSON.stringify(folder)} });
      const db = database.db;
      const transaction = db.transaction.bind(db);
      db.transaction = async (work, config) => {
        const result = await transaction(work, config);
        if (config?.accessMode !== 'read only') {
          fs.writeSync(1, 'committed\\n');
          process.kill(process.pid, 'SIGKILL');
        }
        return result;
      };
      await importDatabaseJson({ db, cache: new ResponseCache() }, fs.readFileSync(${JSON.stringify(file)}, 'utf8'),
        { mode: 'replace', recompute: true, allowFull: true, backupFolder: ${JSON.stringify(path.join(root, 'backups'))} });
      console.log('finished');`;
    const child = spawn(process.execPath, ['--import', tsxLoader, '--input-type=module', '-e', script]);
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    await new Promise((resolve) => child.on('close', resolve));
    expect(out).toContain('committed');
    expect(out).not.toContain('finished');

    const database = await openDatabase({ dataDir: folder });
    try {
      const ids = async (query: string) =>
        (await database.execute(query)).rows.map((r) => (r as { id: number }).id);
      const measurands = await ids(
        'select distinct analyte_id as id from bv_specifications where include_in_meta_analysis order by 1',
      );
      expect(measurands.length).toBeGreaterThan(10);
      // No result survived the replace, and every measurand waits in the outbox.
      expect(await ids('select distinct analyte_id as id from meta_calculations')).toEqual([]);
      expect(await ids('select analyte_id as id from meta_recompute_requests order by 1')).toEqual(
        measurands,
      );
      // The next start: the worker drains the outbox.
      const queue = new RecomputeWorker(database, () => undefined, { pollMs: 100 });
      await queue.start({ work: true });
      try {
        for (let i = 0; i < 600; i++) {
          if ((await ids('select analyte_id as id from meta_recompute_requests')).length === 0) break;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        await queue.idle();
      } finally {
        await queue.stop();
      }
      expect(await ids('select analyte_id as id from meta_recompute_requests')).toEqual([]);
      expect(withResults.length).toBeGreaterThan(10);
      expect(await ids('select distinct analyte_id as id from meta_calculations order by 1')).toEqual(
        withResults,
      );
    } finally {
      await database.close();
    }
  }, 180_000);
});
