import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import type { JobQueue } from '../modules/meta-analysis/jobs/job-queue.js';
import type { ResponseCache } from './response-cache.js';

/**
 * What a service may use, passed explicitly: the database, the read cache its writes invalidate,
 * the job queue (absent in processes that run none), the logger and the settings. Services never
 * receive the Fastify instance, so they can be called from a CLI, a job or a test alike.
 */
export interface ServiceDeps {
  db: Db;
  cache: ResponseCache;
  jobs?: JobQueue;
  log: FastifyBaseLogger;
  config: Config;
}

/** The service dependencies of a running application (the only place routes reach into `app.deps`). */
export function serviceDeps(app: FastifyInstance): ServiceDeps {
  const { database, cache, jobs, config } = app.deps;
  return { db: database.db, cache, jobs, log: app.log, config };
}
