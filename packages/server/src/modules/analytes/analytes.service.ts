import type { DbOrTx } from '../../db/client.js';
import * as repo from './analytes.repository.js';

/** The measurands module's face for its own routes and for other modules (never its repository). */
export const findAnalyte = (db: DbOrTx, id: number) => repo.findAnalyte(db, id);

export const listAnalytesWithCounts = (db: DbOrTx, signedIn: boolean) =>
  repo.listAnalytesWithCounts(db, signedIn);

export const findAnalyteWithCount = (db: DbOrTx, id: number, signedIn: boolean) =>
  repo.findAnalyteWithCount(db, id, signedIn);
