import { getQueueJob, latestMetaJobs, listQueueJobs, startMetaRecompute, type Job } from '@bvdb/contract';
import type { FastifyInstance } from 'fastify';
import { AppError, notFound } from '../../lib/app-error.js';
import { route } from '../../plugins/contract-routes.js';
import { findJob, latestJobNamed, listJobs, type JobRow } from '../../jobs/job-records.repository.js';
import { META_JOB_NAMES } from '../../jobs/meta-recompute.job.js';

export function presentJob(j: JobRow): Job {
  return {
    id: j.id,
    jid: j.jid,
    name: j.name,
    queue: j.queue,
    class_name: j.className,
    started_at: j.startedAt?.toISOString() ?? null,
    finished_at: j.finishedAt?.toISOString() ?? null,
    status: j.status as Job['status'],
    progress_stage: j.progressStage,
    progress_current: j.progressCurrent,
    progress_max: j.progressMax,
    error: j.error,
    created_at: j.createdAt.toISOString(),
  };
}

export function registerJobRoutes(app: FastifyInstance): void {
  const db = () => app.deps.database.db;

  route(app, getQueueJob, async ({ params }) => {
    const job = await findJob(db(), params.id);
    if (!job) throw notFound(`Job ${params.id}`);
    return { code: 'success' as const, data: presentJob(job) };
  });

  route(app, listQueueJobs, async () => ({
    code: 'success' as const,
    data: (await listJobs(db())).map(presentJob),
  }));

  route(app, latestMetaJobs, async () => {
    const [meta, consolidated] = await Promise.all([
      latestJobNamed(db(), META_JOB_NAMES.matrices),
      latestJobNamed(db(), META_JOB_NAMES.consolidations),
    ]);
    return {
      meta: meta ? presentJob(meta) : null,
      consolidated: consolidated ? presentJob(consolidated) : null,
    };
  });

  route(app, startMetaRecompute, async ({ body, reply }) => {
    const jobs = app.deps.jobs;
    if (!jobs?.isStarted) throw new AppError('unavailable', 'The job queue is not running on this server');
    const meta = await jobs.enqueueMetaRecompute('matrices', body.analyte_ids);
    const consolidated = await jobs.enqueueMetaRecompute('consolidations', body.analyte_ids);
    const [m, c] = await Promise.all([findJob(db(), meta.id), findJob(db(), consolidated.id)]);
    return reply.status(202).send({ meta: presentJob(m!), consolidated: presentJob(c!) });
  });
}
