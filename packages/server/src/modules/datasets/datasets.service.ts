import type { DbOrTx } from '../../db/client.js';
import * as repo from './datasets.repository.js';

export type { DatasetFilter, DatasetRow } from './datasets.repository.js';

/** The datasets module's read face for its routes and for other modules (never its repository). */
export const findVisibleDataset = (db: DbOrTx, id: number, signedIn: boolean) =>
  repo.findVisibleDataset(db, id, signedIn);

export const listDatasets = (db: DbOrTx, f: repo.DatasetFilter) => repo.listDatasets(db, f);

export const countDatasets = (db: DbOrTx, f: Pick<repo.DatasetFilter, 'signedIn' | 'updatedSince'>) =>
  repo.countDatasets(db, f);
