import { randomBytes } from 'node:crypto';
import type http from 'node:http';

/** How many request ids the last-resort fault log names. */
const KEPT = 64;

/**
 * An incoming `X-Request-Id` worth keeping: a proxy's or a client's id (a UUID, a trace id,
 * `abc-123/7`), at most 128 characters that cannot break a log line or a header.
 */
const ACCEPTED_ID = /^[\w.:/+=@-]{1,128}$/;

/**
 * This process's prefix: 48 random bits, so ids from two replicas, or from before and after a
 * restart, do not collide (the counter alone restarts at 1).
 */
const PROCESS_PREFIX = randomBytes(6).toString('base64url');

/** The request's id: its incoming `X-Request-Id` when acceptable, else `<process prefix>-<counter>`. */
export function incomingRequestId(req: http.IncomingMessage | undefined): string | undefined {
  const given = req?.headers['x-request-id'];
  return typeof given === 'string' && ACCEPTED_ID.test(given) ? given : undefined;
}

/**
 * Fastify's request-id generator, which also keeps the ids of the most recently started requests
 * for the last-resort fault log (lib/last-resort.ts): a fault from a timer or an event handler
 * carries no request, so the log names those that were started last. Each id is written into a ring
 * as well, so it adds no hook and no work to a request beyond one array store. The id is sent back
 * as the `X-Request-Id` response header (app.ts, plugins/fast-reads.ts) and is every log line's
 * `reqId`, so an operator can follow a request from a proxy's log into bvdb's.
 */
export class RecentRequests {
  /** Ids, or the counter of an id not made yet (`note`): its text is made only when listed. */
  private readonly ring: (string | number)[] = new Array<string | number>(KEPT);
  private next = 0;

  /** Fastify's `genReqId` (the fast read path calls it too, with the raw request). */
  readonly genReqId = (req?: http.IncomingMessage): string => {
    this.next = (this.next + 1) & 0x7fffffff;
    const id = incomingRequestId(req) ?? `${PROCESS_PREFIX}-${this.next.toString(36)}`;
    this.ring[this.next % KEPT] = id;
    return id;
  };

  /**
   * Counts a request whose id is not sent (a kept read answered by the fast path to a client that
   * sent none, decision 089): the ring keeps its counter, and `list` names it as `genReqId` would.
   */
  note(): void {
    this.next = (this.next + 1) & 0x7fffffff;
    this.ring[this.next % KEPT] = this.next;
  }

  /** Newest first. */
  list(): string[] {
    const out: string[] = [];
    for (let i = 0; i < KEPT && this.next - i > 0; i++) {
      const id = this.ring[(this.next - i) % KEPT]!;
      out.push(typeof id === 'number' ? `${PROCESS_PREFIX}-${id.toString(36)}` : id);
    }
    return out;
  }
}
