import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../lib/app-error.js';

/**
 * How many computations (routes marked `oneAtATime`: an estimation) one client address
 * runs at once (decision 086). The rate limit counts requests a minute; this bounds the threads one
 * client holds at a time, so a client within its allowance cannot keep the estimator busy for
 * everyone else: a further one from the same address answers 429 at once, before its body is read,
 * while another address is served. Counted per process, like the rate limits.
 *
 * A slot is held from the request's arrival until the handler's work is done (even when the client
 * hung up meanwhile: the thread still works), or until the request ends without reaching it.
 */
const HELD = Symbol('computation slot');

type Slot = { key: string; state: 'waiting' | 'working' | 'released' };
type WithSlot = FastifyRequest & { [HELD]?: Slot };

/** Seconds a refused client is told to wait: most computations answer within a few. */
export const COMPUTATION_RETRY_AFTER_SECONDS = 5;

export function registerComputationGate(app: FastifyInstance, perClient: number): void {
  const running = new Map<string, number>();
  const release = (slot: Slot) => {
    if (slot.state === 'released') return;
    slot.state = 'released';
    const left = (running.get(slot.key) ?? 1) - 1;
    if (left > 0) running.set(slot.key, left);
    else running.delete(slot.key);
  };

  app.addHook('onRequest', async (request: WithSlot) => {
    if (!request.routeOptions.config.oneAtATime) return;
    const key = request.ip;
    const now = running.get(key) ?? 0;
    if (now >= perClient) {
      throw new AppError(
        'too_many_requests',
        `Your address already has ${perClient === 1 ? 'an estimation' : `${perClient} estimations`} running: ` +
          `at most ${perClient} at a time. Try again when ${perClient === 1 ? 'it has' : 'one has'} answered.`,
        { headers: { 'Retry-After': String(COMPUTATION_RETRY_AFTER_SECONDS) } },
      );
    }
    running.set(key, now + 1);
    request[HELD] = { key, state: 'waiting' };
  });
  // Ended before the handler ran (a body too large, a validation error, a client gone): free now.
  const releaseIfWaiting = async (request: WithSlot) => {
    const slot = request[HELD];
    if (slot?.state === 'waiting') release(slot);
  };
  app.addHook('onResponse', releaseIfWaiting);
  app.addHook('onRequestAbort', releaseIfWaiting);

  app.decorate('holdComputation', async <T>(request: FastifyRequest, work: () => Promise<T>): Promise<T> => {
    const slot = (request as WithSlot)[HELD];
    if (!slot || slot.state !== 'waiting') return work();
    slot.state = 'working';
    try {
      return await work();
    } finally {
      release(slot);
    }
  });

  app.decorate('computationsRunning', () => [...running.values()].reduce((s, n) => s + n, 0));
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Runs a route's handler holding the client's computation slot until its work is done. */
    holdComputation<T>(request: FastifyRequest, work: () => Promise<T>): Promise<T>;
    /** Computations running now, over every client (for tests and metrics). */
    computationsRunning(): number;
  }
  interface FastifyContextConfig {
    /** A computation: one client runs at most RATE_LIMIT_CONCURRENT_COMPUTATIONS of them at once. */
    oneAtATime?: boolean;
  }
}
