import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import type { RecomputeDoor } from './recompute-door.js';
import type { ResponseCache } from './response-cache.js';

/**
 * What a service may use, passed explicitly: the database, the read cache its writes invalidate,
 * the recompute's door (every process has one; decision 048), the logger and the settings. Services never
 * receive the Fastify instance, so they can be called from a CLI, a job or a test alike.
 */
export interface ServiceDeps {
  db: Db;
  cache: ResponseCache;
  recompute: RecomputeDoor;
  log: FastifyBaseLogger;
  config: Config;
}

/** The service dependencies of a running application (the only place routes reach into `app.deps`). */
export function serviceDeps(app: FastifyInstance): ServiceDeps {
  const { database, cache, recompute, config } = app.deps;
  return { db: database.db, cache, recompute, log: app.log, config };
}
