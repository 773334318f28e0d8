/** EX_SOFTWARE: the process found itself in a state it cannot vouch for. */
export const EXIT_FAULT = 70;

interface FatalLogger {
  fatal(obj: object, msg: string): void;
}

/**
 * The last resort for a fault nothing else caught (a throw from a timer or an event handler, a
 * rejected promise nobody awaited): log it with the request it came from, when known, and the
 * requests started last, then exit non-zero for the supervisor to restart the process. It never
 * resumes: after an unexpected throw the process's state cannot be trusted (issue 25).
 */
export function installLastResort(log: FatalLogger, recentRequests: () => string[] = () => []): void {
  process.on('uncaughtException', (err, origin) => {
    try {
      const reqId = (err as { reqId?: unknown } | null)?.reqId;
      log.fatal(
        { err, origin, ...(reqId !== undefined ? { reqId } : {}), recentRequests: recentRequests() },
        'uncaught fault: exiting so that the supervisor restarts the process',
      );
    } finally {
      process.exit(EXIT_FAULT);
    }
  });
}
