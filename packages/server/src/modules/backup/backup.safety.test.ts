import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/client.js';
import { ResponseCache } from '../../lib/response-cache.js';
import { signInAs, type SignedIn } from '../../test/sign-in.js';
import { createTestApp, type TestContext } from '../../test/test-app.js';
import { RecomputeWorker } from '../recompute-queue/recompute-worker.js';
import { importDatabaseJson } from './backup-import.service.js';

/** Issue 25: imports that never answer 500, never run two at once, and never destroy without a word. */

type Row = Record<string, unknown>;
interface File {
  format: string;
  format_version: number;
  tables: Record<string, Row[]>;
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bvdb-safety-'));
let ctx: TestContext;
let s: SignedIn;
let full: string;
let data: string;
beforeAll(async () => {
  ctx = await createTestApp({ env: { DATA_DIR: dataDir } });
  s = await signInAs(ctx.app);
  // Three appraisal rounds, as an instance in use has: their datasets are "in appraisal".
  await ctx.database.execute(`
    with d as (select id from bv_specifications order by id limit 3),
         u as (update bv_specifications set appraisal_state = 'in_appraisal' where id in (select id from d))
    insert into appraisal_rounds (dataset_id, state, opened_by) select id, 'unassigned', 1 from d`);
  full = (await ctx.app.inject({ url: '/export/bv_database.json?full=1', headers: s.headers })).body;
  data = (await ctx.app.inject({ url: '/export/bv_database.json', headers: s.headers })).body;
}, 120_000);
afterAll(async () => {
  await ctx?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const edit = (text: string, change: (f: File) => void) => {
  const f = JSON.parse(text) as File;
  change(f);
  return JSON.stringify(f);
};
const count = async (table: string, where = 'true') =>
  Number(
    ((await ctx.database.execute(`select count(*)::int n from "${table}" where ${where}`)).rows[0] as Row).n,
  );

function multipart(body: string) {
  const boundary = '----bvdbsafety';
  return {
    payload: Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bv_database.json"\r\nContent-Type: application/json\r\n\r\n`,
      ),
      Buffer.from(body),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}
const post = (query: string, body: string) => {
  const m = multipart(body);
  return ctx.app.inject({
    method: 'POST',
    url: `/api/v1/admin/import?${query}`,
    payload: m.payload,
    headers: { ...m.headers, ...s.headers },
  });
};
/** Back to the state the file was exported in (a replace with the complete backup). */
const restore = async () => {
  const res = await post('mode=replace', full);
  expect(res.statusCode, res.body).toBe(200);
  s = await signInAs(ctx.app);
};

describe('5a: numbers the columns cannot hold are refused before anything is written', () => {
  const cases: [string, string, (f: File) => void, RegExp][] = [
    [
      'an id of 2^31 (replace)',
      'mode=replace',
      (f) => (f.tables.analytes![0]!.id = 2 ** 31),
      /analytes, row 1 \(id 2147483648\), field id: 2147483648 is out of range/,
    ],
    [
      'an id of 2^31 (merge)',
      'mode=merge',
      (f) => (f.tables.analytes![0]!.id = 2 ** 31),
      /analytes, row 1 \(id 2147483648\), field id: 2147483648 is out of range/,
    ],
    [
      'an id of 2^31 (preview of a merge)',
      'mode=merge&dry_run=1',
      (f) => (f.tables.analytes![0]!.id = 2 ** 31),
      /analytes, row 1 \(id 2147483648\), field id: 2147483648 is out of range/,
    ],
    [
      'a year below -2^31',
      'mode=merge',
      (f) => (f.tables.references![1]!.year_of_publication = -(2 ** 31) - 1),
      /references, row 2 \(id \d+\), field year_of_publication: -2147483649 is out of range/,
    ],
    [
      'a reference id of 2^31 in a dataset',
      'mode=replace',
      (f) => (f.tables.bv_specifications![0]!.reference_id = 2 ** 31),
      /bv_specifications, row 1 \(id \d+\), field reference_id: 2147483648 is out of range/,
    ],
  ];
  it.each(cases)('%s', async (_name, query, change, message) => {
    const before = await count('analytes');
    const res = await post(query, edit(data, change));
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    expect(res.json<{ message: string }>().message).toMatch(message);
    expect(await count('analytes')).toBe(before);
  });
});

describe('5b: one import at a time', () => {
  const smaller = () =>
    edit(data, (f) => {
      f.tables.bv_specifications = f.tables.bv_specifications!.slice(0, 5);
      const kept = new Set(f.tables.bv_specifications.map((d) => d.id));
      for (const t of ['bv_specification_disease_states', 'meta_calculation_datasets']) {
        f.tables[t] = f.tables[t]!.filter((r) => kept.has(r.bv_specification_id));
      }
    });

  it('two imports started together: one 200, one 409 with a message, never 500; the data is the winner’s', async () => {
    const all = await count('bv_specifications');
    for (let i = 0; i < 3; i++) {
      const [a, b] = await Promise.all([post('mode=replace', smaller()), post('mode=merge', data)]);
      expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
      const loser = a.statusCode === 409 ? a : b;
      expect(loser.json<{ message: string }>().message).toBe(
        'Another import is running; try again when it has finished',
      );
      // The replace leaves 5 datasets; the merge adds the file back to whatever is there.
      expect(await count('bv_specifications')).toBe(a.statusCode === 200 ? 5 : all);
      await restore();
    }
  }, 240_000);

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'an import running in another process (it holds the lock) makes this one a 409',
    async () => {
      const { IMPORT_LOCK_KEY } = await import('./backup.repository.js');
      const other = await ctx.database.pool!.connect();
      try {
        await other.query('begin');
        await other.query('select pg_advisory_xact_lock($1)', [IMPORT_LOCK_KEY]);
        const res = await post('mode=merge', data);
        expect(res.statusCode).toBe(409);
        expect(res.json<{ message: string }>().message).toMatch(/Another import is running/);
        await other.query('rollback');
        expect((await post('mode=merge', data)).statusCode).toBe(200);
      } finally {
        other.release();
      }
    },
  );
});

describe('8: a replace says what it deletes, keeps an administrator, keeps what the file leaves out', () => {
  it('the preview lists, table by table, the rows a replace deletes', async () => {
    const res = await post('mode=replace&dry_run=1', data);
    expect(res.statusCode).toBe(200);
    const deletes = res.json<{ deletes: { name: string; rows: number }[] }>().deletes;
    expect(deletes).toContainEqual({ name: 'bv_specifications', rows: await count('bv_specifications') });
    expect(deletes).toContainEqual({ name: 'analytes', rows: await count('analytes') });
    // A data-only export carries no accounts or rounds: they are kept, so not listed.
    expect(deletes.map((d) => d.name)).not.toContain('users');
    expect(deletes.map((d) => d.name)).not.toContain('appraisal_rounds');
    // A merge deletes nothing.
    const merge = await post('mode=merge&dry_run=1', data);
    expect(merge.json<{ deletes: unknown[] }>().deletes).toEqual([]);
  });

  it('a replace that would leave no active administrator is a 422, and nothing changes', async () => {
    const users = await count('users');
    const empty = JSON.stringify({ format: 'bvdb-database', format_version: 1, tables: { users: [] } });
    for (const query of ['mode=replace', 'mode=replace&dry_run=1']) {
      const res = await post(query, empty);
      expect(res.statusCode).toBe(422);
      expect(res.json<{ message: string }>().message).toMatch(/no active administrator/);
    }
    const curatorsOnly = edit(full, (f) => {
      for (const u of f.tables.users!) if (u.role === 'admin') u.active = false;
    });
    expect((await post('mode=replace', curatorsOnly)).statusCode).toBe(422);
    const demoted = edit(full, (f) => {
      for (const u of f.tables.users!) u.role = 'curator';
    });
    expect((await post('mode=merge', demoted)).statusCode).toBe(422);
    expect(await count('users')).toBe(users);
    expect(await count('users', "role = 'admin' and active")).toBeGreaterThan(0);
  });

  it('a replace with the data-only export keeps the appraisal rounds and the accounts', async () => {
    const rounds = await count('appraisal_rounds');
    const users = await count('users');
    expect(rounds).toBe(3);
    const res = await post('mode=replace', data);
    expect(res.statusCode, res.body).toBe(200);
    expect(await count('appraisal_rounds')).toBe(rounds);
    expect(await count('users')).toBe(users);
    expect(await count('bv_specifications', "appraisal_state = 'in_appraisal'")).toBe(3);
    s = await signInAs(ctx.app);
  });

  it('clear_absent=1 empties the tables the file leaves out; datasets left in appraisal without a round are final again', async () => {
    const noRounds = edit(full, (f) => {
      delete f.tables.appraisal_rounds;
      delete f.tables.appraisals;
    });
    const preview = await post('mode=replace&clear_absent=1&dry_run=1', noRounds);
    expect(preview.json<{ deletes: unknown[] }>().deletes).toContainEqual({
      name: 'appraisal_rounds',
      rows: 3,
    });
    const res = await post('mode=replace&clear_absent=1', noRounds);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ returned_to_final: number }>().returned_to_final).toBe(3);
    expect(await count('appraisal_rounds')).toBe(0);
    expect(await count('bv_specifications', "appraisal_state = 'in_appraisal'")).toBe(0);
    s = await signInAs(ctx.app);
    await restore();
  });

  it('a replace first saves the database as a complete backup in DATA_DIR/backups, and names it', async () => {
    const datasets = await count('bv_specifications');
    const res = await post('mode=replace', data);
    expect(res.statusCode, res.body).toBe(200);
    const name = res.json<{ backup_file: string }>().backup_file;
    expect(name).toMatch(/^bvdb-before-replace-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}Z\.json$/);
    const saved = JSON.parse(fs.readFileSync(path.join(dataDir, 'backups', name), 'utf8')) as File & {
      scope: string;
    };
    expect(saved).toMatchObject({ format: 'bvdb-database', scope: 'full' });
    expect(saved.tables.bv_specifications).toHaveLength(datasets);
    expect(saved.tables.users!.length).toBeGreaterThan(0);
    // Nothing half-written is left beside it.
    expect(fs.readdirSync(path.join(dataDir, 'backups')).filter((f) => !f.endsWith('.json'))).toEqual([]);
    // A preview or a merge writes no backup.
    const before = fs.readdirSync(path.join(dataDir, 'backups')).length;
    await post('mode=replace&dry_run=1', data);
    await post('mode=merge', data);
    expect(fs.readdirSync(path.join(dataDir, 'backups')).length).toBe(before);
    s = await signInAs(ctx.app);
  });
});

describe('8: rows a replace keeps but whose parent the file does not bring back', () => {
  it('are listed in the preview and left out, as the cascade would', async () => {
    expect(await count('appraisal_rounds')).toBe(3);
    const [first] = (await ctx.database.execute('select dataset_id as id from appraisal_rounds order by 1'))
      .rows as { id: number }[];
    const without = edit(data, (f) => {
      f.tables.bv_specifications = f.tables.bv_specifications!.filter((d) => d.id !== first!.id);
      for (const t of ['bv_specification_disease_states', 'meta_calculation_datasets']) {
        f.tables[t] = f.tables[t]!.filter((r) => r.bv_specification_id !== first!.id);
      }
    });
    const preview = await post('mode=replace&dry_run=1', without);
    expect(preview.json<{ deletes: unknown[] }>().deletes).toContainEqual({
      name: 'appraisal_rounds',
      rows: 1,
    });
    expect((await post('mode=replace', without)).statusCode).toBe(200);
    expect(await count('appraisal_rounds')).toBe(2);
    expect(await count('bv_specifications', "appraisal_state = 'in_appraisal'")).toBe(2);
  });
});

describe('7: a crash right after an import with recompute has committed', () => {
  it('leaves every measurand in the outbox, and the worker computes their results', async () => {
    const ids = async (query: string) =>
      (await ctx.database.execute(query)).rows.map((r) => (r as { id: number }).id);
    const withResults = await ids('select distinct analyte_id as id from meta_calculations order by 1');
    expect(withResults.length).toBeGreaterThan(10);
    // This "process" dies as the import's transaction commits: every later use of the database fails.
    let dead = false;
    const real = ctx.database.db;
    const db = new Proxy(real, {
      get(target, prop) {
        if (dead) throw new Error('killed after the commit');
        if (prop === 'transaction') {
          return async (...args: Parameters<Db['transaction']>) => {
            const result = await target.transaction(...args);
            if (args[1]?.accessMode !== 'read only') dead = true;
            return result;
          };
        }
        const value = Reflect.get(target, prop, target) as unknown;
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    await expect(
      importDatabaseJson({ db, cache: new ResponseCache() }, data, {
        mode: 'replace',
        recompute: true,
        allowFull: true,
        backupFolder: path.join(dataDir, 'backups'),
      }),
    ).rejects.toThrow('killed after the commit');
    const measurands = await ids(
      'select distinct analyte_id as id from bv_specifications where include_in_meta_analysis order by 1',
    );
    expect(await ids('select id from meta_calculations')).toEqual([]);
    expect(await ids('select analyte_id as id from meta_recompute_requests order by 1')).toEqual(measurands);

    // The next start: the worker drains the outbox.
    const queue = new RecomputeWorker(ctx.database, () => undefined, { pollMs: 100 });
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
    expect(await ids('select distinct analyte_id as id from meta_calculations order by 1')).toEqual(
      withResults,
    );
  }, 180_000);

  it('without a crash, the answer comes with the results computed and the outbox empty', async () => {
    const res = await post('mode=replace&recompute=1', data);
    expect(res.statusCode, res.body).toBe(200);
    const { recompute } = res.json<{ recompute: { measurands: number } }>();
    const measurands = await ctx.database.execute(
      'select count(distinct analyte_id)::int n from bv_specifications where include_in_meta_analysis',
    );
    expect(recompute.measurands).toBe((measurands.rows[0] as Row).n);
    expect(await count('meta_recompute_requests')).toBe(0);
    expect(await count('meta_calculations')).toBeGreaterThan(0);
  }, 180_000);
});
