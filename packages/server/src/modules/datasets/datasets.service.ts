import type { DbOrTx } from '../../db/client.js';
import { presentDataset } from './datasets.presenter.js';
import * as repo from './datasets.repository.js';

export type { DatasetFilter, DatasetRow } from './datasets.repository.js';

/** The datasets module's read face for its routes and for other modules (never its repository). */
export const findVisibleDataset = (db: DbOrTx, id: number, signedIn: boolean) =>
  repo.findVisibleDataset(db, id, signedIn);

export const listDatasets = (db: DbOrTx, f: repo.DatasetFilter) => repo.listDatasets(db, f);

export const countDatasets = (db: DbOrTx, f: Pick<repo.DatasetFilter, 'signedIn' | 'updatedSince'>) =>
  repo.countDatasets(db, f);

/** Datasets in the read API's shape, for modules that hand them on (exports). */
export const listPresentedDatasets = async (db: DbOrTx, f: repo.DatasetFilter) =>
  (await repo.listDatasets(db, f)).map(presentDataset);

/** The 14 BIVAC grades of a stored dataset, keyed by checklist item. */
export { gradesOf } from './dataset-columns.js';
