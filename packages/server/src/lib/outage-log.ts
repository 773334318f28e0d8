/**
 * Logging a failure that repeats while something is away (the database during an outage) so an
 * operator can act on it (issue 43.11, decision 086): one line when it starts, with the driver's
 * reason and code, and one line when it is over, with how long and how many failures; never the
 * SQL text or its parameters, which Drizzle's "Failed query: …" wrapper carries.
 */

/** The lines an outage log writes: pino's methods, or `jsonLineLog` where there is no logger. */
export interface OutageLogger {
  error(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

export interface FailureCause {
  /** The driver's own words (the innermost error's message), without any SQL. */
  message: string;
  /** SQLSTATE (`57P01`) or the socket's code (`ECONNREFUSED`), when there is one. */
  code?: string;
}

/** Drizzle's wrapper: "Failed query: <sql>\nparams: <values>". */
const WRAPPER = /^Failed query:/;

/** The driver's reason under any wrappers, and the first code met on the way down. */
export function causeOf(err: unknown): FailureCause {
  let e = err;
  let code: string | undefined;
  for (let depth = 0; depth < 6 && e && typeof e === 'object'; depth++) {
    const c = (e as { code?: unknown }).code;
    if (code === undefined && (typeof c === 'string' || typeof c === 'number')) code = String(c);
    const inner = (e as { cause?: unknown }).cause;
    if (!inner) break;
    e = inner;
  }
  const raw = e instanceof Error ? e.message : String((e as { message?: unknown } | null)?.message ?? e);
  const message = WRAPPER.test(raw) ? 'a query failed (no reason given by the driver)' : raw.slice(0, 500);
  return code === undefined ? { message } : { message, code };
}

/** One line a pino line would be (level, time, msg), for code that runs where there is no logger. */
export const jsonLineLog = (base: object = {}): OutageLogger => {
  const write = (level: number) => (obj: object, msg: string) =>
    process.stdout.write(
      `${JSON.stringify({ level, time: Date.now(), pid: process.pid, ...base, ...obj, msg })}\n`,
    );
  return { error: write(50), info: write(30) };
};

export class OutageLog {
  private down: { since: number; failures: number } | null = null;

  constructor(
    private readonly log: OutageLogger,
    /** What fails, as the lines name it: "recompute drain" → "recompute drain failed". */
    private readonly what: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** A failure: logged when it is the first since the last success, counted otherwise. */
  failed(err: unknown): void {
    if (this.down) {
      this.down.failures++;
      return;
    }
    this.down = { since: this.now(), failures: 1 };
    this.log.error({ cause: causeOf(err) }, `${this.what} failed`);
  }

  /** A success: logs the recovery when failures came before it. */
  succeeded(): void {
    if (!this.down) return;
    const { since, failures } = this.down;
    this.down = null;
    this.log.info({ failures, seconds: Math.round((this.now() - since) / 1000) }, `${this.what} recovered`);
  }

  get failing(): boolean {
    return this.down !== null;
  }
}
