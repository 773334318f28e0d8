import type { FastifyInstance } from 'fastify';

/** Kept bounded: an id that somehow never saw its end must not grow the set for ever. */
const MAX_TRACKED = 10_000;

declare module 'fastify' {
  interface FastifyInstance {
    /** Ids of the requests being answered now, for the last-resort fault log (lib/last-resort.ts). */
    requestsInFlight: Set<string>;
  }
}

/** Two set operations per request: the cheapest way to name the requests a fault may belong to. */
export function registerRequestsInFlight(app: FastifyInstance): void {
  const inFlight = new Set<string>();
  app.decorate('requestsInFlight', inFlight);
  app.addHook('onRequest', (request, _reply, done) => {
    if (inFlight.size >= MAX_TRACKED) inFlight.delete(inFlight.values().next().value!);
    inFlight.add(request.id);
    done();
  });
  const forget = (request: { id: string }, _reply: unknown, done: () => void) => {
    inFlight.delete(request.id);
    done();
  };
  app.addHook('onResponse', forget);
  app.addHook('onRequestAbort', (request, done) => forget(request, undefined, done));
}
