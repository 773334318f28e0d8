import type { DbOrTx } from '../../db/client.js';
import * as repo from './metas.repository.js';

export type { MetaRow } from './metas.repository.js';

/** The meta-analysis results' read face for other modules (never the repository). */
export const listDisplayedMetas = (db: DbOrTx, opts: { limit?: number; offset?: number } = {}) =>
  repo.listDisplayedMetas(db, opts);

export const listMetasOfAnalyte = (db: DbOrTx, analyteId: number) => repo.listMetasOfAnalyte(db, analyteId);

export const listDatasetsOfMetas = (db: DbOrTx, metaIds: number[]) => repo.listDatasetsOfMetas(db, metaIds);
