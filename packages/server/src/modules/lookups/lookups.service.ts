import type { DbOrTx } from '../../db/client.js';
import * as repo from './lookups.repository.js';

/** The lookups module's face for other modules (never its repository). */
export const findMatrix = (db: DbOrTx, id: number) => repo.findMatrix(db, id);
