import {
  AuditEntrySchema,
  LocalEstimateSchema,
  LocalEstimatesSchema,
  type LocalEstimate,
} from '@bvdb/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analytes, localEstimates } from '../../db/schema.js';
import { serviceDeps } from '../../lib/service-deps.js';
import { signInAs, type SignedIn } from '../../test/sign-in.js';
import { createTestApp, type TestContext } from '../../test/test-app.js';
import { createUser } from '../auth/index.js';

// A curator's save, edit and delete of a local estimate (issue 46.4, decision 100): each audited in
// its own transaction, the edit and the delete of the version the curator saw (409 otherwise), for
// curators and administrators with the CSRF token only.

const PASSWORD = 'test-password-123';
let ctx: TestContext;
let curator: SignedIn;
let assessor: SignedIn;
let measurandId: number;

beforeAll(async () => {
  ctx = await createTestApp();
  const deps = serviceDeps(ctx.app);
  await createUser(deps, { email: 'cur@example.org', name: null, role: 'curator', password: PASSWORD });
  await createUser(deps, { email: 'ass@example.org', name: null, role: 'assessor', password: PASSWORD });
  curator = await signInAs(ctx.app, 'cur@example.org', PASSWORD);
  assessor = await signInAs(ctx.app, 'ass@example.org', PASSWORD);
  const [a] = await ctx.database.db.select({ id: analytes.id }).from(analytes).limit(1);
  measurandId = a!.id;
});
afterAll(async () => ctx.close());

const summary = {
  laboratory: 'Example hospital laboratory',
  method: 'result_ratio',
  cv_total: 6.4,
  cva: 2,
  cvi: 6.1,
  cvi_lower: 5.6,
  cvi_upper: 6.7,
  pairs: 5123,
  patients: 2100,
  results: 9000,
  min_days: 1,
  max_days: 30,
  pairs_per_patient: 'all',
  period: '2023–2024',
};

const save = async (headers: Record<string, string> = curator.headers) => {
  const res = await ctx.app.inject({
    method: 'POST',
    url: `/api/v1/measurands/${measurandId}/local-estimates`,
    payload: summary,
    headers,
  });
  return res;
};
const saved = async (): Promise<LocalEstimate> => {
  const res = await save();
  expect(res.statusCode, res.body).toBe(201);
  return LocalEstimateSchema.parse(res.json());
};
const edit = (id: number, payload: object, headers: Record<string, string> = curator.headers) =>
  ctx.app.inject({ method: 'PATCH', url: `/api/v1/local-estimates/${id}`, payload, headers });
const remove = (id: number, version: number | null, headers: Record<string, string> = curator.headers) =>
  ctx.app.inject({
    method: 'DELETE',
    url: `/api/v1/local-estimates/${id}${version === null ? '' : `?version=${version}`}`,
    headers,
  });
const trail = async (id: number) => {
  const res = await ctx.app.inject({ url: `/api/audit/local_estimate/${id}`, headers: curator.headers });
  expect(res.statusCode, res.body).toBe(200);
  return AuditEntrySchema.array().parse(res.json<{ data: unknown }>().data);
};
const rowOf = async (id: number) =>
  (await ctx.database.db.select().from(localEstimates).where(eq(localEstimates.id, id)))[0];

describe('a local estimate, saved, edited and deleted by a curator (decision 100)', () => {
  it('a save is audited with what was saved, by whom', async () => {
    const e = await saved();
    expect(e.version).toBe(1);
    const entries = await trail(e.id);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      action: 'create',
      user_email: 'cur@example.org',
      before: null,
      after: { laboratory: summary.laboratory, cvi: 6.1, pairs: 5123, measurand_id: measurandId },
    });
  });

  it('an edit changes the labels only, moves the version on and is audited with before and after', async () => {
    const e = await saved();
    const res = await edit(e.id, { version: 1, laboratory: 'Renamed laboratory', note: 'Outpatients only' });
    expect(res.statusCode, res.body).toBe(200);
    const after = LocalEstimateSchema.parse(res.json());
    expect(after).toMatchObject({
      laboratory: 'Renamed laboratory',
      note: 'Outpatients only',
      period: summary.period,
      cvi: 6.1,
      version: 2,
    });
    // The numbers of the run cannot be edited: the body is strict.
    expect((await edit(e.id, { version: 2, cvi: 3 })).statusCode).toBe(400);
    // null clears a label.
    const cleared = LocalEstimateSchema.parse((await edit(e.id, { version: 2, period: null })).json());
    expect(cleared).toMatchObject({ period: null, version: 3 });
    const [last, first] = await trail(e.id);
    expect(first).toMatchObject({
      action: 'update',
      user_email: 'cur@example.org',
      before: { laboratory: summary.laboratory, note: null },
      after: { laboratory: 'Renamed laboratory', note: 'Outpatients only' },
      changed: ['laboratory', 'note'],
    });
    expect(last).toMatchObject({ action: 'update', changed: ['period'] });
    const list = LocalEstimatesSchema.parse(
      (await ctx.app.inject({ url: `/api/v1/measurands/${measurandId}/local-estimates` })).json(),
    );
    expect(list.items.find((x) => x.id === e.id)).toEqual(cleared);
  });

  it('an edit or a delete of a version that changed since is 409 with the current one, and changes nothing', async () => {
    const e = await saved();
    expect((await edit(e.id, { version: 1, note: 'first' })).statusCode).toBe(200);
    const stale = await edit(e.id, { version: 1, note: 'second' });
    expect(stale.statusCode).toBe(409);
    expect(stale.json<{ current: LocalEstimate }>().current).toMatchObject({ version: 2, note: 'first' });
    const staleDelete = await remove(e.id, 1);
    expect(staleDelete.statusCode).toBe(409);
    expect(await rowOf(e.id)).toMatchObject({ note: 'first', version: 2 });
    expect((await trail(e.id)).map((x) => x.action)).toEqual(['update', 'create']);
  });

  it('a delete of the version seen removes it and is audited with what was deleted', async () => {
    const e = await saved();
    expect((await remove(e.id, null)).statusCode).toBe(400);
    const res = await remove(e.id, 1);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ code: 'success' });
    expect(await rowOf(e.id)).toBeUndefined();
    const [entry] = await trail(e.id);
    expect(entry).toMatchObject({
      action: 'delete',
      user_email: 'cur@example.org',
      before: { id: e.id, laboratory: summary.laboratory, cvi: 6.1 },
      after: null,
    });
    expect((await remove(e.id, 1)).statusCode).toBe(404);
    expect((await edit(e.id, { version: 1, note: 'x' })).statusCode).toBe(404);
  });

  it('an assessor is refused (403), as is a curator without the CSRF token (403) and nobody signed in (401)', async () => {
    const e = await saved();
    const noCsrf = { cookie: curator.cookie };
    for (const headers of [assessor.headers, noCsrf]) {
      expect((await save(headers)).statusCode).toBe(403);
      expect((await edit(e.id, { version: 1, note: 'x' }, headers)).statusCode).toBe(403);
      expect((await remove(e.id, 1, headers)).statusCode).toBe(403);
    }
    expect((await save({})).statusCode).toBe(401);
    expect((await edit(e.id, { version: 1, note: 'x' }, {})).statusCode).toBe(401);
    expect((await remove(e.id, 1, {})).statusCode).toBe(401);
    expect(await rowOf(e.id)).toMatchObject({ version: 1, note: null });
    expect(await trail(e.id)).toHaveLength(1);
  });
});
