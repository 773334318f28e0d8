import type { Db } from '../../db/client.js';
import { PeriodicTask } from '../../lib/periodic-task.js';
import { sweepLinkMenus } from './kept-menus.service.js';

/** Deletes the link menus nobody opened for 13 months, every six hours (decision 064). */
export class MenuSweep extends PeriodicTask {
  constructor(db: Db, everyMs = 6 * 60 * 60 * 1000) {
    super('menu sweep', () => sweepLinkMenus({ db }), everyMs);
  }
}
