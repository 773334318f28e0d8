/**
 * SQLSTATEs of a server that went away or is not taking connections: admin_shutdown,
 * crash_shutdown, cannot_connect_now, and the connection_exception class (08…).
 */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '08000', '08001', '08003', '08004', '08006']);
/** Socket errors of the driver, when the server cannot be reached at all. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
]);
/** node-postgres says these in words, without a code. */
const DRIVER_MESSAGES =
  /Connection terminated|connection error and is not queryable|Client was closed|timeout exceeded when trying to connect|not currently accepting connections|the database system is (starting up|shutting down)|the embedded database thread is not running/i;

/**
 * Whether a failure is the database being away (a lost connection, a restarting server) rather
 * than anything the request did: such a request gets 503 with Retry-After, and the next ones work
 * again once the database is back. Drizzle wraps the driver's error: its causes are looked at too.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (UNAVAILABLE_STATES.has(code) || SOCKET_CODES.has(code))) return true;
    if (typeof message === 'string' && DRIVER_MESSAGES.test(message)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** The driver's own words under Drizzle's "Failed query: …" wrapper (for /readyz and logs). */
export function rootMessage(err: unknown): string {
  let e = err;
  for (let depth = 0; depth < 5 && (e as { cause?: unknown } | null)?.cause; depth++)
    e = (e as { cause: unknown }).cause;
  return e instanceof Error ? e.message : String((e as { message?: unknown })?.message ?? e);
}
