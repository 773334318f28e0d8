import type { FastifyInstance } from 'fastify';
import { requestStarted } from '../lib/requests-in-flight.js';

/**
 * Counts each request on the full path from its start until its connection is done with it (sent,
 * or the client went away), for the background work that waits for a quiet moment (decision 114).
 */
export function registerRequestsInFlight(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.raw.once('close', requestStarted());
    done();
  });
}
