import type { Db } from '../../db/client.js';
import { PeriodicTask } from '../../lib/periodic-task.js';
import { purgeExpiredSessions } from './auth.service.js';

/**
 * Deletes expired sessions now and then, on its own timer (it ran inside the recompute worker's
 * loop before decision 048; a session has nothing to do with the recompute).
 */
export class SessionPurge extends PeriodicTask {
  constructor(db: Db, everyMs = 10 * 60 * 1000) {
    super('session purge', () => purgeExpiredSessions({ db }), everyMs);
  }
}
