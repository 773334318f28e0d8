import type { DbOrTx } from '../../db/client.js';
import * as repo from './references.repository.js';

/** The references module's face for other modules (never its repository). */
export const findReference = (db: DbOrTx, id: number) => repo.findReference(db, id);
