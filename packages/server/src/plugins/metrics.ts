import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppMetrics } from '../lib/metrics.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's Prometheus metrics, null when METRICS is off (plugins/metrics.ts). */
    metrics: AppMetrics | null;
  }
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * Whether the Authorization header carries the token, compared in constant time (both sides hashed
 * first, so neither the length nor a common prefix shows in the time taken).
 */
export function bearerMatches(header: string | undefined, token: string): boolean {
  // The scheme is case-insensitive and followed by one or more spaces (RFC 7235 §2.1, RFC 6750 §2.1).
  const given = /^bearer +(.*)$/i.exec(header ?? '')?.[1]?.trim() ?? '';
  return timingSafeEqual(digest(given), digest(token)) && given.length > 0;
}

/**
 * `GET /metrics` in Prometheus text format (decision 045), off unless METRICS=on: off, no route and
 * no hook, so the path is unknown (404) and requests pay nothing. On, every answer is counted from
 * onResponse (the fast read path counts its own replays), and METRICS_TOKEN, when set, is required
 * as a bearer token (401 otherwise).
 */
export function registerMetrics(app: FastifyInstance): void {
  const { config, database, cache, recompute } = app.deps;
  if (!config.METRICS) {
    app.decorate('metrics', null);
    return;
  }
  const metrics = new AppMetrics({
    database,
    cache,
    recompute,
    fastReads: () => app.fastReads,
    changes: () => app.deps.changes,
  });
  app.decorate('metrics', metrics);
  app.addHook('onClose', async () => metrics.close());
  app.addHook('onResponse', async (request: FastifyRequest, reply: FastifyReply) => {
    metrics.observeRequest(
      request.method,
      request.routeOptions.url,
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
  });
  const token = config.METRICS_TOKEN;
  app.get('/metrics', { schema: { hide: true }, config: { access: 'public' } }, async (request, reply) => {
    if (token !== undefined && !bearerMatches(request.headers.authorization, token)) {
      return reply.code(401).header('WWW-Authenticate', 'Bearer realm="metrics"').send({
        error: 'Unauthorized',
        message: 'Send the metrics token: Authorization: Bearer <METRICS_TOKEN>',
        statusCode: 401,
      });
    }
    const text = await metrics.registry.metrics();
    return reply.header('Cache-Control', 'no-store').type(metrics.registry.contentType).send(text);
  });
}
