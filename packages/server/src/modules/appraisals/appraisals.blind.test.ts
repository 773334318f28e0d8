import { QUALITY_ITEMS } from '@bvdb/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceDeps } from '../../lib/service-deps.js';
import { depsOf } from '../../test/backup-answers.js';
import { signInAs, type SignedIn } from '../../test/sign-in.js';
import { createTestApp, type TestContext } from '../../test/test-app.js';
import { recordAudit } from '../audit/audit.service.js';
import { createUser } from '../auth/users.service.js';
import { exportDatabaseJson } from '../backup/backup.service.js';
import { importDatabaseJson } from '../backup/backup-import.service.js';

// Blindness belongs to the round, not to the caller's role (decision 038): an administrator who is
// assessor B reads nothing of A's appraisal anywhere until both first appraisals are in.
const PASSWORD = 'blind-pass-123';
const SECRET = 'SECRET-OF-ASSESSOR-A';
const allA = Object.fromEntries(QUALITY_ITEMS.map((i) => [i.key, 'A'])) as Record<string, string>;
const gradesOfA = { ...allA, samples: 'C' };
/** A trail entry that carries A's grades and comment, as an older or future entry might. */
const LEAKY_MARK = 'LEAKY-AUDIT-ENTRY';

let ctx: TestContext;
let adminB: SignedIn; // the seeded administrator: assessor B
let otherAdmin: SignedIn; // an administrator who assesses nothing
let assessorA: SignedIn;
let datasetId: number;
let roundId: number;
let appraisalA: number;
let appraisalB: number;

interface BackupJson {
  scope: string;
  withheld?: Record<string, number>;
  tables: Record<string, Record<string, unknown>[]>;
}

function get(url: string, who?: SignedIn) {
  return ctx.app.inject({ url, headers: who ? { cookie: who.cookie } : {} });
}
function send(method: 'POST' | 'PUT', url: string, who: SignedIn, payload: object = {}) {
  return ctx.app.inject({ method, url, headers: who.headers, payload });
}
const fullBackup = async (who: SignedIn) => {
  const res = await get('/export/bv_database.json?full=1', who);
  expect(res.statusCode).toBe(200);
  return { body: res.body, file: res.json<BackupJson>() };
};
interface BoardRow {
  round_id: number;
  version: number;
  assessors: { slot: string; appraisal_id: number }[];
}
const boardRow = async () =>
  (await get('/api/appraisal_rounds', adminB))
    .json<{ data: BoardRow[] }>()
    .data.find((r) => r.round_id === roundId)!;
const submit = async (who: SignedIn, id: number, grades: Record<string, string>, comments = {}) => {
  const { version } = (await get(`/api/appraisals/${id}`, who)).json<{ version: number }>();
  const res = await send('PUT', `/api/appraisals/${id}`, who, { version, grades, comments });
  expect(res.statusCode, res.body).toBe(200);
};

const leakingAnswers = (answers: Record<string, string>) =>
  Object.entries(answers)
    .filter(([, body]) => body.includes(SECRET) || body.includes(LEAKY_MARK))
    .map(([name]) => name);

/** Every answer B (an administrator) can read that might carry appraisal data. */
async function answersFor(who: SignedIn) {
  return {
    'full backup': (await get('/export/bv_database.json?full=1', who)).body,
    'my appraisals': (await get('/api/appraisals/mine', who)).body,
    'my appraisal B': (await get(`/api/appraisals/${appraisalB}`, who)).body,
    board: (await get('/api/appraisal_rounds', who)).body,
    'audit trail': (await get(`/api/audit/bv_specification/${datasetId}`, who)).body,
    agreement: (await get('/api/appraisal_agreement', who)).body,
    'dataset page': (await get(`/api/bv_specifications/${datasetId}`, who)).body,
    'dataset (v1)': (await get(`/api/v1/datasets/${datasetId}`, who)).body,
  };
}

beforeAll(async () => {
  ctx = await createTestApp();
  const deps = serviceDeps(ctx.app);
  await createUser(deps, { email: 'blind-a@example.org', name: null, role: 'assessor', password: PASSWORD });
  await createUser(deps, { email: 'other-admin@example.org', name: null, role: 'admin', password: PASSWORD });
  adminB = await signInAs(ctx.app);
  otherAdmin = await signInAs(ctx.app, 'other-admin@example.org', PASSWORD);
  assessorA = await signInAs(ctx.app, 'blind-a@example.org', PASSWORD);
  const users = (await get('/api/users', adminB)).json<{ data: { id: number; email: string }[] }>().data;
  const idOf = (email: string) => users.find((u) => u.email === email)!.id;
  const [first] = (
    await ctx.database.execute('select min(id)::int as id from bv_specifications where published')
  ).rows as { id: number }[];
  datasetId = first!.id;
  const opened = await send('POST', `/api/bv_specifications/${datasetId}/appraisal`, adminB);
  expect(opened.statusCode, opened.body).toBe(201);
  roundId = opened.json<{ round_id: number }>().round_id;
  for (const [slot, email] of [
    ['A', 'blind-a@example.org'],
    ['B', 'admin@example.org'],
  ] as const) {
    const row = await boardRow();
    const res = await send('PUT', `/api/appraisal_rounds/${roundId}/assessors`, adminB, {
      version: row.version,
      slot,
      assessor_id: idOf(email),
    });
    expect(res.statusCode, res.body).toBe(200);
  }
  const row = await boardRow();
  appraisalA = row.assessors.find((a) => a.slot === 'A')!.appraisal_id;
  appraisalB = row.assessors.find((a) => a.slot === 'B')!.appraisal_id;
  await submit(assessorA, appraisalA, gradesOfA, { samples: SECRET });
  // An audit entry of this round that carries A's grades (no code writes one today; the rule holds
  // whatever a future or imported entry holds).
  await recordAudit(ctx.database.db, {
    userId: null,
    entity: 'bv_specification',
    entityId: datasetId,
    action: 'appraisal_submitted',
    after: { round_id: roundId, slot: 'A', grades: gradesOfA, comments: { samples: LEAKY_MARK } },
  });
}, 120_000);
afterAll(async () => {
  await ctx?.close();
});

describe('an administrator who is assessor B, before submitting', () => {
  it("finds none of A's grades or comments in the full backup; the file says rows were withheld", async () => {
    const { body, file } = await fullBackup(adminB);
    expect(body).not.toContain(SECRET);
    expect(body).not.toContain(LEAKY_MARK);
    expect(file.tables.appraisals!.map((r) => r.id)).not.toContain(appraisalA);
    expect(file.tables.appraisals!.map((r) => r.id)).toContain(appraisalB);
    expect(file.withheld).toEqual({ appraisals: 1, audit_log: 1 });
  });

  it('reads nothing of A in any answer: pages, API, trail, agreement figures', async () => {
    const answers = await answersFor(adminB);
    expect(leakingAnswers(answers)).toEqual([]);
    expect((await get(`/api/appraisals/${appraisalA}`, adminB)).statusCode).toBe(403);
    expect(JSON.parse(answers['my appraisal B'])).toMatchObject({ grades: null, others: [] });
    // The agreement figures count no pair of this round, and its grade C is in no figure.
    expect(JSON.parse(answers.agreement)).toMatchObject({ rounds: 0 });
    // The dataset keeps its last final grades while in appraisal, never A's.
    expect(JSON.parse(answers['dataset page'])).not.toMatchObject({ samples: 'C' });
  });

  it('no GET route of the whole API answers B with anything of A (every route walked)', async () => {
    const answers: Record<string, string> = {};
    const ids = [...new Set([datasetId, roundId, appraisalA, appraisalB, 1])];
    const gets = ctx.app.registeredRoutes.filter(
      (r) => r.method === 'GET' && !r.url.startsWith('/api/docs') && r.url !== '/*',
    );
    expect(gets.length).toBeGreaterThan(40);
    for (const r of gets) {
      const urls = r.url.includes(':file')
        ? ['bv_database.json', 'bv_database.json?full=1', `${datasetId}.xlsx`].map((f) =>
            r.url.replace(':file', f),
          )
        : r.url.includes(':entity')
          ? ['bv_specification', 'database'].map((e) =>
              r.url.replace(':entity', e).replace(':id', String(datasetId)),
            )
          : ids.map((id) => r.url.replace(/:[a-z_]+/g, String(id)).replace(/\*$/, ''));
      for (const url of new Set(urls)) answers[url] = (await get(url, adminB)).body;
    }
    // The walk reaches the readers that hold A's appraisal for someone else.
    expect(leakingAnswers(answers)).toEqual([]);
    expect(Object.keys(answers)).toEqual(expect.arrayContaining(['/export/bv_database.json?full=1']));
  }, 120_000);

  it('a full backup by an administrator who assesses nothing keeps everything', async () => {
    const { body, file } = await fullBackup(otherAdmin);
    expect(body).toContain(SECRET);
    expect(body).toContain(LEAKY_MARK);
    expect(file.tables.appraisals!.map((r) => r.id)).toEqual(
      expect.arrayContaining([appraisalA, appraisalB]),
    );
    expect(file.withheld).toBeUndefined();
    expect((await get(`/api/audit/bv_specification/${datasetId}`, otherAdmin)).body).toContain(LEAKY_MARK);
  });

  it('a file with withheld rows is refused for new and replace imports, and accepted for a merge', async () => {
    const { body } = await fullBackup(adminB);
    for (const mode of ['new', 'replace'] as const) {
      await expect(
        importDatabaseJson(depsOf(ctx), body, { mode, dryRun: true, allowFull: true }),
      ).rejects.toThrow(/withheld/);
    }
    const merge = await importDatabaseJson(depsOf(ctx), body, {
      mode: 'merge',
      dryRun: true,
      allowFull: true,
    });
    expect(merge.withheld).toEqual({ appraisals: 1, audit_log: 1 });
  });
});

const userIdOf = async (email: string) =>
  (await get('/api/users', adminB))
    .json<{ data: { id: number; email: string }[] }>()
    .data.find((u) => u.email === email)!.id;
const assign = async (round: number, slot: 'A' | 'B' | 'third', email: string) => {
  const row = (await get('/api/appraisal_rounds', adminB))
    .json<{ data: BoardRow[] }>()
    .data.find((r) => r.round_id === round)!;
  return send('PUT', `/api/appraisal_rounds/${round}/assessors`, adminB, {
    version: row.version,
    slot,
    assessor_id: await userIdOf(email),
  });
};

describe('blindness belongs to the person: B moves slot B away, exports, and takes it back (issue 43.1)', () => {
  it("reads none of A's grades in the full backup while someone else holds B, nor after taking B back", async () => {
    const away = await assign(roundId, 'B', 'other-admin@example.org');
    expect(away.statusCode, away.body).toBe(200);
    const moved = await fullBackup(adminB);
    expect(moved.body).not.toContain(SECRET);
    expect(moved.body).not.toContain(LEAKY_MARK);
    // Both first appraisals are someone else's now: both withheld.
    expect(moved.file.tables.appraisals!.map((r) => r.id)).not.toContain(appraisalA);
    expect(moved.file.withheld).toEqual({ appraisals: 2, audit_log: 1 });
    expect(leakingAnswers(await answersFor(adminB))).toEqual([]);
    const back = await assign(roundId, 'B', 'admin@example.org');
    expect(back.statusCode, back.body).toBe(200);
    expect((await fullBackup(adminB)).body).not.toContain(SECRET);
    // The administrator who held B for a moment is as blind as B (they held the slot).
    const meanwhile = await fullBackup(otherAdmin);
    expect(meanwhile.body).not.toContain(SECRET);
  });
});

describe('every full export is in the audit trail', () => {
  interface Entry {
    action: string;
    user_email: string | null;
    created_at: string;
    after: Record<string, unknown>;
  }
  const exportsTrail = async () =>
    (await get('/api/audit/database/1', otherAdmin)).json<{ data: Entry[] }>().data;

  it('records who (the user, or the command line), when and what kind', async () => {
    const started = Date.now();
    const before = (await exportsTrail()).length;
    await fullBackup(otherAdmin);
    await exportDatabaseJson(ctx.database.db, 'full', 'command line');
    // A whole-database export that is not a backup is not recorded, nor a HEAD (it sends no file).
    expect((await get('/export/bv_database.json', otherAdmin)).statusCode).toBe(200);
    const head = await ctx.app.inject({
      method: 'HEAD',
      url: '/export/bv_database.json?full=1',
      headers: { cookie: otherAdmin.cookie },
    });
    expect(head.statusCode).toBe(200);
    const trail = await exportsTrail();
    expect(trail).toHaveLength(before + 2);
    const [cli, http] = trail;
    expect(cli).toMatchObject({
      action: 'export',
      user_email: null,
      after: { scope: 'full', by: 'command line' },
    });
    expect(http).toMatchObject({
      action: 'export',
      user_email: 'other-admin@example.org',
      after: { scope: 'full', by: 'other-admin@example.org' },
    });
    expect(Date.parse(http!.created_at)).toBeGreaterThanOrEqual(started - 1000);
    expect(trail.filter((e) => e.after.scope !== 'full')).toEqual([]);
    // B's withheld backups say so in their entries.
    expect(trail.some((e) => e.user_email === 'admin@example.org' && e.after.withheld)).toBe(true);
  });
});

describe('once both first appraisals are in', () => {
  it("B reads A's appraisal in the full backup and the trail; the agreement figures count the round", async () => {
    await submit(adminB, appraisalB, { ...allA, scale: 'B' });
    const { body, file } = await fullBackup(adminB);
    expect(body).toContain(SECRET);
    expect(body).toContain(LEAKY_MARK);
    expect(file.withheld).toBeUndefined();
    expect((await get(`/api/audit/bv_specification/${datasetId}`, adminB)).body).toContain(LEAKY_MARK);
    const agreement = (await get('/api/appraisal_agreement', adminB)).json<{
      rounds: number;
      items: { key: string; pairs: number; agreed_share: number | null }[];
    }>();
    expect(agreement.rounds).toBe(1);
    expect(agreement.items.find((i) => i.key === 'samples')).toMatchObject({ pairs: 1, agreed_share: 0 });
    expect(
      (await get('/api/appraisal_rounds', adminB))
        .json<{ data: { round_id: number; disputed_items: string[] }[] }>()
        .data.find((r) => r.round_id === roundId)!
        .disputed_items.sort(),
    ).toEqual(['samples', 'scale']);
    // A and B still see only their own appraisal on their page (decision 008).
    expect((await get(`/api/appraisals/${appraisalB}`, adminB)).json<{ others: unknown[] }>().others).toEqual(
      [],
    );
  });

  it('an administrator who is the third assessor sees both first appraisals, in their page and backup', async () => {
    const row = await boardRow();
    const users = (await get('/api/users', adminB)).json<{ data: { id: number; email: string }[] }>().data;
    const assigned = await send('PUT', `/api/appraisal_rounds/${roundId}/assessors`, adminB, {
      version: row.version,
      slot: 'third',
      assessor_id: users.find((u) => u.email === 'other-admin@example.org')!.id,
    });
    expect(assigned.statusCode, assigned.body).toBe(200);
    const third = (await boardRow()).assessors.find((a) => a.slot === 'third')!.appraisal_id;
    const page = (await get(`/api/appraisals/${third}`, otherAdmin)).json<{
      others: { slot: string; comments: Record<string, string> }[];
    }>();
    expect(page.others.map((o) => o.slot)).toEqual(['A', 'B']);
    expect(page.others[0]!.comments.samples).toBe(SECRET);
    const { body, file } = await fullBackup(otherAdmin);
    expect(body).toContain(SECRET);
    expect(file.withheld).toBeUndefined();
  });
});

describe('a slot is never given to someone who held the other one (issue 43.1)', () => {
  it('refuses with 422 naming why; the same slot back is allowed', async () => {
    const [second] = (
      await ctx.database.execute(
        `select min(id)::int as id from bv_specifications where published and id <> ${datasetId}`,
      )
    ).rows as { id: number }[];
    const opened = await send('POST', `/api/bv_specifications/${second!.id}/appraisal`, adminB);
    expect(opened.statusCode, opened.body).toBe(201);
    const round = opened.json<{ round_id: number }>().round_id;
    expect((await assign(round, 'A', 'blind-a@example.org')).statusCode).toBe(200);
    expect((await assign(round, 'B', 'admin@example.org')).statusCode).toBe(200);
    expect((await assign(round, 'B', 'other-admin@example.org')).statusCode).toBe(200);
    // The former B may not become A (they would read B's side as A), nor the former A B.
    const refused = await assign(round, 'A', 'admin@example.org');
    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.json<{ message: string }>().message).toBe(
      'admin@example.org has held the second appraisal of this round; the first must be someone who has not (the two appraise blind).',
    );
    expect((await assign(round, 'A', 'other-admin@example.org')).statusCode).toBe(422);
    expect((await assign(round, 'B', 'admin@example.org')).statusCode).toBe(200);
    // Whoever held a slot is blind to the round, whatever they hold now: the A of this round
    // (now moved to someone new) is hidden from the former A too.
  });
});
