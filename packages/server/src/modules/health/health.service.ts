import { pingDatabase } from '../../db/client.js';
import { rootMessage } from '../../db/connection-errors.js';
import type { ServiceDeps } from '../../lib/service-deps.js';

/** Ready when the database answers; otherwise why not, for the operator's probe. */
export async function checkReadiness(
  deps: Pick<ServiceDeps, 'db'>,
): Promise<{ ready: true } | { ready: false; message: string }> {
  try {
    await pingDatabase(deps.db);
    return { ready: true };
  } catch (err) {
    return { ready: false, message: `database unavailable: ${rootMessage(err)}` };
  }
}
