import { count, eq, inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { metaAnalyse, overallGrade } from '@bvdb/domain';
import { buildApp } from '../../app.js';
import {
  analytes,
  bvSpecifications,
  jobs,
  metaCalculations,
  metaRecomputeRequests,
  sessions,
  users,
} from '../../db/schema.js';
import { testConfig, useTestApp } from '../../test/test-app.js';
import { signInAs } from '../../test/sign-in.js';
import { gradesOf } from '../../db/spec-grades.js';
import { parseLegacyPayload } from '../jobs/legacy-jobs.js';
import { estimateOf } from '../meta-analysis/calculation/meta-eligibility.js';
import { SessionPurge } from '../auth/session-purge.js';
import { RecomputeWorker } from './recompute-worker.js';
import { advanceTrackers } from '../jobs/job-records.repository.js';
import { claimRequests, finishRequest } from './recompute-requests.repository.js';
import { drainOnce, requestRecompute, type DrainOptions } from './recompute.service.js';

const ctx = useTestApp();
const opts = (worker: string, over: Partial<DrainOptions> = {}): DrainOptions => ({
  worker,
  batchSize: 200,
  chunkSize: 25,
  leaseSeconds: 30,
  maxAttempts: 3,
  retryDelaySeconds: 5,
  ...over,
});

const snapshot = async () =>
  (
    await ctx.database.db
      .select({
        id: metaCalculations.id,
        analyteId: metaCalculations.analyteId,
        matrixId: metaCalculations.matrixId,
        consolidationId: metaCalculations.matrixConsolidationId,
        varType: metaCalculations.varType,
        median: metaCalculations.median,
        lower: metaCalculations.lower,
        upper: metaCalculations.upper,
        n: metaCalculations.numberUsed,
      })
      .from(metaCalculations)
  ).sort((a, b) => a.id - b.id);

const request = (analyteIds?: number[]) =>
  ctx.database.db.transaction((tx) =>
    requestRecompute(tx, { analyteIds, cause: { kind: 'dataset', role: 'curator' } }),
  );
const tracker = async (id: number) => (await ctx.database.db.select().from(jobs).where(eq(jobs.id, id)))[0]!;
const pending = async () => (await ctx.database.db.select({ n: count() }).from(metaRecomputeRequests))[0]!.n;
async function drainAll(worker = 'w1', over: Partial<DrainOptions> = {}) {
  while ((await drainOnce(ctx.database.db, opts(worker, over), () => undefined)) > 0);
}

describe('meta-analysis recompute requests', () => {
  it('a full request gives, for every measurand × matrix × type, what the domain engine gives', async () => {
    await ctx.database.db.delete(metaCalculations);
    const t = await request();
    expect(t.status).toBe('queued');
    expect(t.progressMax).toBeGreaterThan(5);
    expect(await pending()).toBe(t.progressMax);
    await drainAll();
    const specs = await ctx.database.db.select().from(bvSpecifications);
    const rows = (await snapshot()).filter((r) => r.matrixId !== null);
    expect(rows.length).toBeGreaterThan(20);
    for (const r of rows) {
      const group = specs.filter((s) => s.analyteId === r.analyteId && s.matrixId === r.matrixId);
      const expected = metaAnalyse(
        group.map((s) => {
          const e = estimateOf(s, r.varType as ':cvi' | ':cvg');
          return {
            id: String(s.referenceId),
            include: s.includeInMetaAnalysis,
            score: overallGrade(gradesOf(s)) ?? 'D',
            cv: e.cv,
            ciLower: e.ciLower,
            ciUpper: e.ciUpper,
          };
        }),
      );
      expect(r.median).toBeCloseTo(expected.weightedMedian!, 10);
      expect(r.n).toBe(expected.n);
    }
    expect(await tracker(t.id)).toMatchObject({ status: 'complete', progressStage: 'Done' });
    expect((await tracker(t.id)).progressCurrent).toBe(t.progressMax);
    expect(await pending()).toBe(0);
  });

  it('requests coalesce per measurand, and every tracker that asked completes', async () => {
    const [a, b] = [await request([1, 2]), await request([2, 3])];
    const rows = await ctx.database.db.select().from(metaRecomputeRequests);
    expect(rows.map((r) => r.analyteId).sort()).toEqual([1, 2, 3]);
    expect(rows.find((r) => r.analyteId === 2)).toMatchObject({ generation: 2, jobIds: [a.id, b.id] });
    await drainAll();
    expect(await pending()).toBe(0);
    expect(await tracker(a.id)).toMatchObject({ status: 'complete', progressCurrent: 2, progressMax: 2 });
    expect(await tracker(b.id)).toMatchObject({ status: 'complete', progressCurrent: 2, progressMax: 2 });
  });

  it('a request for more measurands than one statement takes (issue 44.1: sliced) queues and merges each once', async () => {
    const made = await ctx.database.db
      .insert(analytes)
      .values(Array.from({ length: 1234 }, (_, i) => ({ displayName: `Sliced measurand ${i}` })))
      .returning({ id: analytes.id });
    const ids = made.map((a) => a.id);
    const [a, b] = [await request(ids), await request(ids)];
    const rows = await ctx.database.db
      .select()
      .from(metaRecomputeRequests)
      .where(inArray(metaRecomputeRequests.analyteId, ids));
    expect(rows).toHaveLength(1234);
    for (const r of rows) expect(r).toMatchObject({ generation: 2, jobIds: [a.id, b.id] });
    await ctx.database.db.delete(analytes).where(inArray(analytes.id, ids));
    expect(await pending()).toBe(0);
  });

  it('a request rolled back with its write leaves nothing queued', async () => {
    const jobsBefore = (await ctx.database.db.select({ n: count() }).from(jobs))[0]!.n;
    await expect(
      ctx.database.db.transaction(async (tx) => {
        await requestRecompute(tx, { analyteIds: [1], cause: { kind: 'dataset', role: 'curator' } });
        throw new Error('the write failed');
      }),
    ).rejects.toThrow('the write failed');
    expect(await pending()).toBe(0);
    expect((await ctx.database.db.select({ n: count() }).from(jobs))[0]!.n).toBe(jobsBefore);
  });

  it('a request made while its measurand is being recomputed is kept for another run', async () => {
    const first = await request([1]);
    const [claimed] = await claimRequests(ctx.database.db, 'w1', 10, 30);
    expect(claimed).toMatchObject({ analyteId: 1, generation: 1, jobIds: [first.id] });
    // Another write asks again while the worker recomputes.
    const second = await request([1]);
    expect(await drainOnce(ctx.database.db, opts('w2'), () => undefined)).toBe(0);
    await ctx.database.db.transaction(async (tx) => {
      await finishRequest(tx, claimed!);
      await advanceTrackers(tx, claimed!.jobIds);
    });
    const [row] = await ctx.database.db.select().from(metaRecomputeRequests);
    expect(row).toMatchObject({ analyteId: 1, generation: 2, jobIds: [second.id], claimedUntil: null });
    expect((await tracker(first.id)).status).toBe('complete');
    expect((await tracker(second.id)).status).toBe('queued');
    await drainAll('w2');
    expect(await pending()).toBe(0);
    expect((await tracker(second.id)).status).toBe('complete');
  });

  it('a worker killed mid-run: its claims lapse after the lease, another worker finishes, no duplicates', async () => {
    await ctx.database.db.delete(metaRecomputeRequests);
    const before = await snapshot();
    const t = await request();
    let commits = 0;
    // The crash: after the second committed chunk this worker stops for good, its claims held.
    await expect(
      drainOnce(ctx.database.db, opts('dying', { chunkSize: 3, leaseSeconds: 1 }), () => {
        if (++commits === 2) throw new Error('worker killed');
      }),
    ).rejects.toThrow('worker killed');
    const stuck = await tracker(t.id);
    expect(stuck).toMatchObject({ status: 'working', progressCurrent: 6 });
    expect(await drainOnce(ctx.database.db, opts('rescuer'), () => undefined)).toBe(0);
    const killedAt = Date.now();
    await new Promise((r) => setTimeout(r, 1100));
    await drainAll('rescuer');
    expect(Date.now() - killedAt).toBeLessThan(5000);
    expect(await tracker(t.id)).toMatchObject({ status: 'complete', progressCurrent: t.progressMax });
    expect(await snapshot()).toEqual(before);
    const dupes = await ctx.database.db
      .select({ n: count() })
      .from(metaCalculations)
      .groupBy(
        metaCalculations.analyteId,
        metaCalculations.matrixId,
        metaCalculations.matrixConsolidationId,
        metaCalculations.varType,
      )
      .having(sql`count(*) > 1`);
    expect(dupes).toEqual([]);
  });

  it('a malformed payload of the former queue is refused, naming the bad field and its job record', () => {
    const bad = parseLegacyPayload({ jobId: 7, scope: 'everything' });
    expect(bad).toMatchObject({ ok: false, jobId: 7 });
    expect(!bad.ok && bad.message).toMatch(/^Invalid meta-recompute job payload:[\s\S]*scope/);
    expect(parseLegacyPayload(null)).toMatchObject({ ok: false, jobId: null });
    expect(parseLegacyPayload({ jobId: 3, scope: 'matrices', analyteIds: [1] })).toEqual({
      ok: true,
      payload: { jobId: 3, scope: 'matrices', analyteIds: [1] },
    });
  });

  it('runs through the real worker and the progress endpoint reports it to completion', async () => {
    const [admin] = await ctx.database.db.select().from(users);
    const old = new Date(Date.now() - 13 * 3600_000);
    await ctx.database.db.insert(sessions).values([
      {
        idHash: 'expired',
        userId: admin!.id,
        csrfToken: 'x',
        createdAt: old,
        lastSeenAt: old,
        expiresAt: old,
      },
      { idHash: 'alive', userId: admin!.id, csrfToken: 'x', expiresAt: new Date(Date.now() + 3600_000) },
    ]);
    const logged: { obj: Record<string, unknown>; msg: string }[] = [];
    const log = {
      info: (obj: object, msg: string) => logged.push({ obj: obj as Record<string, unknown>, msg }),
      error: (obj: object, msg: string) => logged.push({ obj: obj as Record<string, unknown>, msg }),
    };
    const queue = new RecomputeWorker(ctx.database, () => undefined, { log });
    await queue.start({ work: true });
    await queue.idle();
    // The session purge, on its own timer beside the worker, deletes expired sessions.
    await new SessionPurge(ctx.database.db).runOnce();
    const left = (await ctx.database.db.select().from(sessions)).map((r) => r.idHash);
    expect(left).toContain('alive');
    expect(left).not.toContain('expired');
    const app = await buildApp({
      config: testConfig({ METRICS: 'on' }),
      database: ctx.database,
      recompute: queue,
    });
    try {
      const s = await signInAs(app);
      const started = await app.inject({
        method: 'POST',
        url: '/api/meta_calculations/recompute',
        headers: s.headers,
        payload: {},
      });
      expect(started.statusCode).toBe(202);
      const { meta, consolidated } = started.json<{ meta: { id: number }; consolidated: { id: number } }>();
      expect(consolidated.id).toBe(meta.id);
      let status = '';
      for (let i = 0; i < 120 && status !== 'complete'; i++) {
        await new Promise((r) => setTimeout(r, 100));
        const res = await app.inject({ url: `/api/queue_jobs/${meta.id}`, headers: { cookie: s.cookie } });
        expect(res.statusCode).toBe(200);
        status = res.json<{ data: { status: string } }>().data.status;
      }
      expect(status).toBe('complete');
      // Each claimed batch is logged (claimed, done, failed, duration) and counted in /metrics.
      const batches = logged.filter((l) => l.msg === 'recompute batch').map((l) => l.obj);
      expect(batches.length).toBeGreaterThan(0);
      const done = batches.reduce((n, b) => n + (b.done as number), 0);
      expect(done).toBeGreaterThan(0);
      for (const b of batches) {
        expect(b).toEqual({
          claimed: expect.any(Number),
          done: expect.any(Number),
          failed: 0,
          ms: expect.any(Number),
        });
        expect((b.done as number) + (b.failed as number)).toBe(b.claimed);
      }
      const metrics = (await app.inject({ url: '/metrics' })).body;
      expect(metrics).toContain(`bvdb_recompute_requests_total{outcome="done"} ${done}`);
      expect(metrics).toContain('bvdb_recompute_requests_total{outcome="failed"} 0');
      expect(metrics).toContain(`bvdb_recompute_batch_duration_seconds_count ${batches.length}`);
      expect(metrics).toContain('bvdb_recompute_queue_depth 0');
      const missing = await app.inject({ url: '/api/queue_jobs/999999', headers: { cookie: s.cookie } });
      expect(missing.statusCode).toBe(404);
      expect(missing.json<{ message: string }>().message).toMatch(/not found/);
    } finally {
      await app.close();
      await queue.stop();
    }
  });
});
