import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { afterAll, describe, expect, it } from 'vitest';
import { multiplyExport } from '../../bench/multiply-export.js';
import { openDatabase } from '../../db/client.js';
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
      import { importDatabaseJson } from ${src('./backup.service.ts')};
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
});
