import { pingDatabase } from '../../db/client.js';
import { rootMessage } from '../../db/connection-errors.js';
import type { ServiceDeps } from '../../lib/service-deps.js';

/** What a driver's message may carry that a public probe must not see: SQL, parameters, a query. */
const INTERNAL_TEXT = /query|select\b|insert\b|update\b|delete\b|\bfrom\b|params|\$\d|\n/i;

/**
 * Ready when the database answers; otherwise why not, for the operator's probe: the driver's own
 * reason ("the database system is starting up", "connection refused"), never query text, which
 * goes to the log only (`/readyz` is public).
 */
export async function checkReadiness(
  deps: Pick<ServiceDeps, 'db'>,
  log?: { warn: (obj: object, msg: string) => void },
): Promise<{ ready: true } | { ready: false; message: string }> {
  try {
    await pingDatabase(deps.db);
    return { ready: true };
  } catch (err) {
    log?.warn({ err }, 'readiness check failed');
    const reason = rootMessage(err).slice(0, 200);
    return {
      ready: false,
      message: INTERNAL_TEXT.test(reason) ? 'database unavailable' : `database unavailable: ${reason}`,
    };
  }
}
