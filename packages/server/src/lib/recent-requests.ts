/** How many request ids the last-resort fault log names. */
const KEPT = 64;

/**
 * The ids of the most recently started requests, for the last-resort fault log (lib/last-resort.ts):
 * a fault from a timer or an event handler carries no request, so the log names those that were
 * started last. It is Fastify's own request-id generator (same `req-<base 36>` ids) writing each id
 * into a ring as well, so it adds no hook and no work to a request beyond one array store.
 */
export class RecentRequests {
  private readonly ring: string[] = new Array<string>(KEPT);
  private next = 0;

  /** Fastify's `genReqId`. */
  readonly genReqId = (): string => {
    this.next = (this.next + 1) & 0x7fffffff;
    const id = `req-${this.next.toString(36)}`;
    this.ring[this.next % KEPT] = id;
    return id;
  };

  /** Newest first. */
  list(): string[] {
    const out: string[] = [];
    for (let i = 0; i < KEPT && this.next - i > 0; i++) out.push(this.ring[(this.next - i) % KEPT]!);
    return out;
  }
}
