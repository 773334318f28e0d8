import { count, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { metaAnalyse, overallGrade } from '@bvdb/domain';
import { bvSpecifications, jobs, metaCalculations } from '../../../db/schema.js';
import { useTestApp } from '../../../test/test-app.js';
import { signInAs } from '../../../test/sign-in.js';
import { JobQueue } from '../jobs/job-queue.js';
import { insertJob } from '../jobs/job-records.repository.js';
import { runMetaRecompute, workMetaRecompute } from './meta-recompute.job.js';
import { gradesOf } from '../../datasets/datasets.service.js';
import { estimateOf } from './meta-eligibility.js';
import { buildApp } from '../../../app.js';
import { testConfig } from '../../../test/test-app.js';

const ctx = useTestApp();

const snapshot = async () =>
  (
    await ctx.database.db
      .select({
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
  ).sort((a, b) =>
    `${a.analyteId}|${a.matrixId}|${a.consolidationId}|${a.varType}`.localeCompare(
      `${b.analyteId}|${b.matrixId}|${b.consolidationId}|${b.varType}`,
    ),
  );

describe('meta-analysis recompute job', () => {
  it('produces, for every measurand × matrix × type, what the domain engine gives on the included datasets', async () => {
    const job = await insertJob(ctx.database.db, {
      name: 'Calculating Meta-Analysis',
      queue: 'q',
      className: 'MetaCalculationJob',
      payload: {},
    });
    await runMetaRecompute(ctx.database.db, { jobId: job.id, scope: 'matrices' }, () => undefined);
    const specs = await ctx.database.db.select().from(bvSpecifications);
    const rows = await snapshot();
    const byMatrix = rows.filter((r) => r.matrixId !== null);
    expect(byMatrix.length).toBeGreaterThan(20);
    for (const r of byMatrix) {
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
    const [done] = await ctx.database.db.select().from(jobs).where(eq(jobs.id, job.id));
    expect(done).toMatchObject({ status: 'complete', progressStage: 'Done' });
    expect(done!.progressCurrent).toBe(done!.progressMax);
  });

  it('a run killed part-way and run again ends complete, correct and without duplicates', async () => {
    const before = await snapshot();
    const job = await insertJob(ctx.database.db, {
      name: 'Calculating Meta-Analysis',
      queue: 'q',
      className: 'MetaCalculationJob',
      payload: {},
    });
    let commits = 0;
    // The crash: the third commit's callback throws, as a killed worker would stop there.
    await expect(
      runMetaRecompute(ctx.database.db, { jobId: job.id, scope: 'matrices' }, () => {
        if (++commits === 3) throw new Error('worker killed');
      }),
    ).rejects.toThrow('worker killed');
    const [failed] = await ctx.database.db.select().from(jobs).where(eq(jobs.id, job.id));
    expect(failed!.status).toBe('failed');
    await runMetaRecompute(ctx.database.db, { jobId: job.id, scope: 'matrices' }, () => undefined);
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

  it('a malformed payload fails the worker and the job record, naming the bad field', async () => {
    const job = await insertJob(ctx.database.db, {
      name: 'Calculating Meta-Analysis',
      queue: 'q',
      className: 'MetaCalculationJob',
      payload: {},
    });
    await expect(
      workMetaRecompute(ctx.database.db, { jobId: job.id, scope: 'everything' }, () => undefined),
    ).rejects.toThrow(/^Invalid meta-recompute job payload:[\s\S]*scope/);
    const [failed] = await ctx.database.db.select().from(jobs).where(eq(jobs.id, job.id));
    expect(failed!.status).toBe('failed');
    expect(failed!.error).toMatch(/scope/);
    await expect(workMetaRecompute(ctx.database.db, null, () => undefined)).rejects.toThrow(
      /^Invalid meta-recompute job payload/,
    );
  });

  it('runs through the real queue (pg-boss) and the progress endpoint reports it to completion', async () => {
    const queue = new JobQueue(ctx.database, () => undefined);
    await queue.start({ work: true });
    const app = await buildApp({ config: testConfig(), database: ctx.database, jobs: queue });
    try {
      const s = await signInAs(app);
      const started = await app.inject({
        method: 'POST',
        url: '/api/meta_calculations/recompute',
        headers: s.headers,
        payload: {},
      });
      expect(started.statusCode).toBe(202);
      const { meta } = started.json<{ meta: { id: number } }>();
      let status = '';
      for (let i = 0; i < 120 && status !== 'complete'; i++) {
        await new Promise((r) => setTimeout(r, 250));
        const res = await app.inject({ url: `/api/queue_jobs/${meta.id}`, headers: { cookie: s.cookie } });
        expect(res.statusCode).toBe(200);
        status = res.json<{ data: { status: string } }>().data.status;
      }
      expect(status).toBe('complete');
      const missing = await app.inject({ url: '/api/queue_jobs/999999', headers: { cookie: s.cookie } });
      expect(missing.statusCode).toBe(404);
      expect(missing.json<{ message: string }>().message).toMatch(/not found/);
    } finally {
      await app.close();
      await queue.stop();
    }
  });
});
