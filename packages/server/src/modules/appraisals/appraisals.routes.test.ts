import { QUALITY_ITEMS } from '@bvdb/domain';
import { and, eq, notInArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bvSpecifications,
  metaCalculationDatasets,
  metaCalculations,
  metaRecomputeRequests,
  references,
} from '../../db/schema.js';
import { serviceDeps } from '../../lib/service-deps.js';
import { startFakeMailgun } from '../../test/fake-mailgun.js';
import { signInAs, type SignedIn } from '../../test/sign-in.js';
import { createTestApp, type TestContext } from '../../test/test-app.js';
import { createUser } from '../auth/users.service.js';

const PASSWORD = 'assessor-pass-123';
const allA = Object.fromEntries(QUALITY_ITEMS.map((i) => [i.key, 'A'])) as Record<string, string>;

let ctx: TestContext;
let mailgun: Awaited<ReturnType<typeof startFakeMailgun>>;
let admin: SignedIn;
let curator: SignedIn;
const as = [] as unknown as [SignedIn, SignedIn, SignedIn];
const ids: Record<string, number> = {};

beforeAll(async () => {
  mailgun = await startFakeMailgun({ apiKey: 'key-test', lists: [], domains: ['mg.example.org'] });
  ctx = await createTestApp({
    env: {
      MAILGUN_API_KEY: 'key-test',
      MAILGUN_DOMAIN: 'mg.example.org',
      MAILGUN_BASE_URL: mailgun.url,
      PUBLIC_URL: 'https://bv.example.org',
      APPRAISE_NEW_DATASETS: 'true',
    },
  });
  admin = await signInAs(ctx.app);
  const deps = serviceDeps(ctx.app);
  for (const [email, role] of [
    ['curator@example.org', 'curator'],
    ['as1@example.org', 'assessor'],
    ['as2@example.org', 'assessor'],
    ['as3@example.org', 'assessor'],
    ['gone@example.org', 'assessor'],
  ] as const) {
    await createUser(deps, { email, name: null, role, password: PASSWORD });
  }
  curator = await signInAs(ctx.app, 'curator@example.org', PASSWORD);
  for (const n of [1, 2, 3]) as.push(await signInAs(ctx.app, `as${n}@example.org`, PASSWORD));
  const users = (await get('/api/users', admin)).json<{ data: { id: number; email: string }[] }>().data;
  for (const u of users) ids[u.email] = u.id;
  // Deactivated: may not be assigned.
  const gone = users.find((u) => u.email === 'gone@example.org')!;
  expect(
    (await send('PATCH', `/api/users/${gone.id}`, admin, { version: 1, active: false })).statusCode,
  ).toBe(200);
});
afterAll(async () => {
  await ctx.close();
  await mailgun.close();
});

function get(url: string, who?: SignedIn) {
  return ctx.app.inject({ url, headers: who ? { cookie: who.cookie } : {} });
}
function send(method: 'POST' | 'PUT' | 'PATCH', url: string, who: SignedIn, payload: object = {}) {
  return ctx.app.inject({ method, url, headers: who.headers, payload });
}

interface Row {
  round_id: number;
  version: number;
  state: string;
  waiting_for: string[];
  assessors: { slot: string; appraisal_id: number; user_id: number; submitted_at: string | null }[];
  disputed_items: string[];
}
interface Mine {
  id: number;
  version: number;
  slot: string;
  status: string;
  grades: Record<string, string> | null;
  others: { slot: string; grades: Record<string, string> }[];
  disputed_items: string[];
}

const board = async (): Promise<Row[]> =>
  (await get('/api/appraisal_rounds', curator)).json<{ data: Row[] }>().data;
const rowOf = async (roundId: number) => (await board()).find((r) => r.round_id === roundId)!;
const assign = async (roundId: number, slot: string, email: string, who = curator) => {
  const row = await rowOf(roundId);
  return send('PUT', `/api/appraisal_rounds/${roundId}/assessors`, who, {
    version: row.version,
    slot,
    assessor_id: ids[email],
  });
};
const appraisalId = async (roundId: number, slot: string) =>
  (await rowOf(roundId)).assessors.find((a) => a.slot === slot)!.appraisal_id;
const mine = async (who: SignedIn, id: number) => (await get(`/api/appraisals/${id}`, who)).json<Mine>();
const submit = async (who: SignedIn, id: number, grades: Record<string, string>, comments = {}) => {
  const { version } = await mine(who, id);
  return send('PUT', `/api/appraisals/${id}`, who, { version, grades, comments });
};

/** A demo dataset that enters a CVI meta-analysis, and that estimate. */
async function datasetInMeta() {
  const [row] = await ctx.database.db
    .select({ datasetId: metaCalculationDatasets.bvSpecificationId, metaId: metaCalculations.id })
    .from(metaCalculationDatasets)
    .innerJoin(metaCalculations, eq(metaCalculations.id, metaCalculationDatasets.metaCalculationId))
    .where(eq(metaCalculations.varType, ':cvi'))
    .limit(1);
  return row!;
}
// Results are read once the recompute worker has drained what the writes asked for (decision 048).
const metaOf = async (metaId: number) => {
  await ctx.app.deps.recompute.settle();
  return (await ctx.database.db.select().from(metaCalculations).where(eq(metaCalculations.id, metaId)))[0]!;
};
const usedIn = async (metaId: number, datasetId: number) => {
  await ctx.app.deps.recompute.settle();
  return (
    await ctx.database.db
      .select()
      .from(metaCalculationDatasets)
      .where(
        and(
          eq(metaCalculationDatasets.metaCalculationId, metaId),
          eq(metaCalculationDatasets.bvSpecificationId, datasetId),
        ),
      )
  )[0];
};

describe('roles on the appraisal routes', () => {
  it('keeps assessors off the board and curators off the agreement figures', async () => {
    expect((await get('/api/appraisals/mine')).statusCode).toBe(401);
    expect((await get('/api/appraisal_rounds', as[0])).statusCode).toBe(403);
    expect((await send('POST', '/api/bv_specifications/1/appraisal', as[0])).statusCode).toBe(403);
    expect((await get('/api/appraisal_agreement', curator)).statusCode).toBe(403);
    expect((await get('/api/appraisal_agreement', admin)).statusCode).toBe(200);
    expect((await get('/api/users', curator)).statusCode).toBe(403);
    expect((await get('/api/appraisals/mine', as[0])).json()).toEqual({ data: [] });
  });
});

describe('a round from opening to a third assessor and final grades', () => {
  let datasetId: number;
  let metaId: number;
  let roundId: number;

  it('opens a round (201), once (409), for a dataset that exists (404), and tells curators', async () => {
    ({ datasetId, metaId } = await datasetInMeta());
    const before = mailgun.messages.length;
    const res = await send('POST', `/api/bv_specifications/${datasetId}/appraisal`, curator);
    expect(res.statusCode, res.body).toBe(201);
    const row = res.json<Row>();
    roundId = row.round_id;
    expect(row.state).toBe('unassigned');
    expect((await send('POST', `/api/bv_specifications/${datasetId}/appraisal`, curator)).statusCode).toBe(
      409,
    );
    expect((await send('POST', '/api/bv_specifications/999999/appraisal', curator)).statusCode).toBe(404);
    const sent = mailgun.messages.slice(before);
    expect(sent.map((m) => m.to).sort()).toEqual(['admin@example.org', 'curator@example.org']);
    expect(sent[0]!.subject).toMatch(/waits for two assessors/);
    expect(sent[0]!.text).toContain('https://bv.example.org/appraisals/board');
    // The dataset keeps its final grades in the meta-analysis while in appraisal.
    expect(await usedIn(metaId, datasetId)).toBeDefined();
  });

  it('assigns A and B (waiting), e-mails each assessor, and refuses bad assignments', async () => {
    const before = mailgun.messages.length;
    expect((await assign(roundId, 'A', 'as1@example.org')).statusCode).toBe(200);
    expect((await rowOf(roundId)).state).toBe('unassigned');
    expect((await assign(roundId, 'A', 'as1@example.org')).json<Row>().state).toBe('unassigned');
    // The same person twice, a deactivated user, a third before any dispute, a stale version.
    expect((await assign(roundId, 'B', 'as1@example.org')).statusCode).toBe(422);
    expect((await assign(roundId, 'B', 'gone@example.org')).statusCode).toBe(422);
    expect((await assign(roundId, 'third', 'as3@example.org')).statusCode).toBe(422);
    const stale = await send('PUT', `/api/appraisal_rounds/${roundId}/assessors`, curator, {
      version: 1,
      slot: 'B',
      assessor_id: ids['as2@example.org'],
    });
    expect(stale.statusCode).toBe(409);
    const res = await assign(roundId, 'B', 'as2@example.org');
    expect(res.statusCode).toBe(200);
    expect(res.json<Row>()).toMatchObject({ state: 'waiting', waiting_for: ['A', 'B'] });
    const sent = mailgun.messages.slice(before);
    expect(sent.filter((m) => /waits for your appraisal/.test(m.subject)).map((m) => m.to)).toEqual([
      'as1@example.org',
      'as1@example.org',
      'as2@example.org',
    ]);
  });

  it('answers 403 to an assessor who is not assigned, and 422 naming an item given a grade it does not allow', async () => {
    const a = await appraisalId(roundId, 'A');
    expect((await get(`/api/appraisals/${a}`, as[2])).statusCode).toBe(403);
    expect((await send('PUT', `/api/appraisals/${a}`, as[2], { version: 1, grades: allA })).statusCode).toBe(
      403,
    );
    const bad = await submit(as[0], a, { ...allA, variance_homogeneity: 'B' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json<{ message: string }>().message).toContain('QI10 Variance Homogeneity');
    const missing = await submit(as[0], a, { ...allA, ci: undefined as unknown as string });
    expect(missing.statusCode).toBe(422);
    expect(missing.json<{ message: string }>().message).toContain('QI12 Confidence Limits');
  });

  it('is blind: before both submitted, neither assessor (nor the board or trail) shows the other grades', async () => {
    const a = await appraisalId(roundId, 'A');
    const b = await appraisalId(roundId, 'B');
    const res = await submit(as[0], a, { ...allA, samples: 'C' }, { samples: 'SECRET-A-COMMENT' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Mine>()).toMatchObject({ status: 'submitted', grades: { samples: 'C' }, others: [] });
    const answers = [
      await get('/api/appraisals/mine', as[1]),
      await get(`/api/appraisals/${b}`, as[1]),
      await get('/api/appraisal_rounds', curator),
      await get(`/api/audit/bv_specification/${datasetId}`, admin),
    ];
    for (const answer of answers) {
      expect(answer.statusCode).toBe(200);
      expect(answer.body).not.toContain('SECRET-A-COMMENT');
      expect(answer.body).not.toMatch(/"samples":"C"/);
    }
    expect((await mine(as[1], b)).grades).toBeNull();
    expect((await get(`/api/appraisals/${a}`, as[1])).statusCode).toBe(403);
  });

  it('keeps a submitted appraisal when reassigning: A cannot move (409), B can', async () => {
    expect((await assign(roundId, 'A', 'as3@example.org')).statusCode).toBe(409);
    expect((await assign(roundId, 'B', 'as3@example.org')).statusCode).toBe(200);
    const b = await appraisalId(roundId, 'B');
    expect((await get(`/api/appraisals/${b}`, as[1])).statusCode).toBe(403);
    const a = await mine(as[0], await appraisalId(roundId, 'A'));
    expect(a).toMatchObject({ status: 'submitted', grades: { ...allA, samples: 'C' } });
    expect((await assign(roundId, 'B', 'as2@example.org')).statusCode).toBe(200);
  });

  it('lets one of two racing submissions through and answers the other 409', async () => {
    const b = await appraisalId(roundId, 'B');
    const { version } = await mine(as[1], b);
    const body = { version, grades: allA, comments: { samples: 'B thinks A' } };
    const [r1, r2] = await Promise.all([
      send('PUT', `/api/appraisals/${b}`, as[1], body),
      send('PUT', `/api/appraisals/${b}`, as[1], { ...body, grades: { ...allA, scale: 'B' } }),
    ]);
    expect([r1.statusCode, r2.statusCode].sort()).toEqual([200, 409]);
    expect((await rowOf(roundId)).state).toBe('disputed');
    expect((await rowOf(roundId)).disputed_items).toEqual(
      r1.statusCode === 200 ? ['samples'] : ['scale', 'samples'],
    );
  });

  it('tells curators of the dispute; the third sees both side by side and decides; then final', async () => {
    const disputed = (await rowOf(roundId)).disputed_items;
    expect(
      mailgun.messages
        .filter((m) => /needs a third assessor/.test(m.subject))
        .map((m) => m.to)
        .sort(),
    ).toEqual(['admin@example.org', 'curator@example.org']);
    // A and B may not be the third.
    expect((await assign(roundId, 'third', 'as1@example.org')).statusCode).toBe(422);
    expect((await assign(roundId, 'third', 'as3@example.org')).statusCode).toBe(200);
    const t = await appraisalId(roundId, 'third');
    const view = await mine(as[2], t);
    expect(view.disputed_items).toEqual(disputed);
    expect(view.others.map((o) => o.slot)).toEqual(['A', 'B']);
    expect(view.others[0]!.grades.samples).toBe('C');
    // Only the disputed items, each with an allowed grade.
    expect((await submit(as[2], t, { ci: 'A' })).statusCode).toBe(422);
    const notAllowed = await submit(as[2], t, { samples: 'X', scale: 'A' });
    expect(notAllowed.statusCode).toBe(422);
    expect(notAllowed.json<{ message: string }>().message).toContain('QI3 Samples');
    const before = await metaOf(metaId);
    const decisions = Object.fromEntries(disputed.map((k) => [k, k === 'samples' ? 'C' : 'A']));
    const res = await submit(as[2], t, decisions);
    expect(res.statusCode, res.body).toBe(200);
    expect((await rowOf(roundId)).state).toBe('final');
    const [spec] = await ctx.database.db
      .select()
      .from(bvSpecifications)
      .where(eq(bvSpecifications.id, datasetId));
    expect(spec).toMatchObject({ samples: 'C', scale: 'A', appraisalState: 'final' });
    // The meta-analysis was recomputed with the dataset's new overall grade (C).
    expect((await usedIn(metaId, datasetId))?.grade).toBe('C');
    expect((await metaOf(metaId)).computedAt.getTime()).toBeGreaterThanOrEqual(before.computedAt.getTime());
    const trail = (await get(`/api/audit/bv_specification/${datasetId}`, admin)).json<{
      data: { action: string; after: Record<string, unknown> | null }[];
    }>().data;
    expect(trail.map((e) => e.action).reverse()).toEqual([
      'appraisal_opened',
      'assessor_assigned',
      'assessor_assigned',
      'assessor_assigned',
      'appraisal_submitted',
      'assessor_assigned',
      'assessor_assigned',
      'appraisal_submitted',
      'appraisal_disputed',
      'assessor_assigned',
      'appraisal_submitted',
      'appraisal_final',
    ]);
    expect(trail[0]!.after).toMatchObject({ samples: 'C', round_id: roundId });
    expect((await assign(roundId, 'B', 'as1@example.org')).statusCode).toBe(409);
  });
});

describe('a dataset entered through the form with the appraisal setting on', () => {
  let datasetId: number;
  let metaId: number;
  let roundId: number;

  it('starts in appraisal, stays out of the meta-analysis, and is never assigned to who entered it', async () => {
    const { datasetId: model, metaId: m } = await datasetInMeta();
    metaId = m;
    const [spec] = await ctx.database.db
      .select()
      .from(bvSpecifications)
      .where(eq(bvSpecifications.id, model));
    const form = (await get(`/api/bv_specifications/${model}/form`, curator)).json<{
      bv_specification: Record<string, unknown>;
    }>().bv_specification;
    // Another paper than the meta-analysis uses, so the new dataset is a study of its own.
    const used = (await metaOf(metaId)).referenceIds;
    const [paper] = await ctx.database.db
      .select({ id: references.id })
      .from(references)
      .where(notInArray(references.id, used));
    const res = await send('POST', '/bv_specifications', curator, {
      bv_specification: {
        ...form,
        reference_id: paper!.id,
        unique_identifier: 'APPRAISE-ME',
        estimates_of_cvi: 42,
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    datasetId = res.json<{ dataset: { id: number } }>().dataset.id;
    expect(spec!.analyteId).toBeGreaterThan(0);
    const row = (await board()).find((r) => r.round_id > 0 && r.state === 'unassigned')!;
    roundId = row.round_id;
    expect(await usedIn(metaId, datasetId)).toBeUndefined();
    // The curator entered it; other assessors are available.
    const self = await assign(roundId, 'A', 'curator@example.org');
    expect(self.statusCode).toBe(422);
    expect(self.json<{ message: string }>().message).toMatch(/entered this dataset/);
  });

  it('with equal appraisals becomes final at once and enters the meta-analysis (its estimate changes)', async () => {
    const before = await metaOf(metaId);
    expect((await assign(roundId, 'A', 'as1@example.org')).statusCode).toBe(200);
    expect((await assign(roundId, 'B', 'as2@example.org')).statusCode).toBe(200);
    const grades = { ...allA, samples: 'B' };
    expect((await submit(as[0], await appraisalId(roundId, 'A'), grades)).statusCode).toBe(200);
    expect((await rowOf(roundId)).waiting_for).toEqual(['B']);
    expect((await submit(as[1], await appraisalId(roundId, 'B'), grades)).statusCode).toBe(200);
    expect((await rowOf(roundId)).state).toBe('final');
    // The final grades asked for the recompute through the door: cause appraisal, by an assessor.
    expect(await ctx.database.db.select().from(metaRecomputeRequests)).toEqual([
      expect.objectContaining({ causeKind: 'appraisal', causeDatasetId: datasetId, causeRole: 'assessor' }),
    ]);
    expect((await usedIn(metaId, datasetId))?.grade).toBe('B');
    const after = await metaOf(metaId);
    expect(after.numberUsed).toBe(before.numberUsed + 1);
    expect(after.median).not.toBe(before.median);
  });
});

describe('agreement figures', () => {
  it("gives per item the share of first appraisals that agreed and Cohen's kappa over a period", async () => {
    const res = await get('/api/appraisal_agreement', admin);
    const body = res.json<{
      rounds: number;
      items: { key: string; pairs: number; agreed_share: number | null; kappa: number | null }[];
    }>();
    expect(body.rounds).toBe(2);
    // samples: (C, A) and (B, B): agreed 1/2; pₒ = 0.5, pₑ = 0.5·0 + 0.5·0.5 + 0·0.5 = 0.25 → κ = 1/3.
    const samples = body.items.find((i) => i.key === 'samples')!;
    expect(samples).toMatchObject({ pairs: 2, agreed_share: 0.5 });
    expect(samples.kappa).toBeCloseTo(1 / 3, 10);
    // normality: A and A twice: agreed, kappa undefined.
    expect(body.items.find((i) => i.key === 'normality')).toMatchObject({ agreed_share: 1, kappa: null });
    const future = (await get('/api/appraisal_agreement?from=2999-01-01', admin)).json<{ rounds: number }>();
    expect(future.rounds).toBe(0);
    expect((await get('/api/appraisal_agreement?from=yesterday', admin)).statusCode).toBe(400);
  });
});
