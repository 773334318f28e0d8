import type { DbOrTx } from '../../db/client.js';
import { presentDataset } from './datasets.presenter.js';
import * as repo from './datasets.repository.js';

/** The datasets module's read face for its routes and for other modules (never its repository). */
export const findVisibleDataset = (db: DbOrTx, id: number, signedIn: boolean) =>
  repo.findVisibleDataset(db, id, signedIn);

export const listDatasets = (db: DbOrTx, f: repo.DatasetFilter) => repo.listDatasets(db, f);

export const countDatasets = (
  db: DbOrTx,
  f: Pick<repo.DatasetFilter, 'signedIn' | 'updatedSince' | 'analyteId'>,
) => repo.countDatasets(db, f);

/**
 * Every dataset of a filter, in id order, a batch at a time (keyset paging on the primary key): a
 * whole-catalogue answer holds one batch in memory, never the table.
 */
export async function* batchesOfDatasets(
  db: DbOrTx,
  f: Omit<repo.DatasetFilter, 'limit' | 'offset' | 'order' | 'afterId'>,
  // 100, not 200: a batch is presented and written as JSON in one go, between two reads; 200 at
  // 100× the demo took 60–140 ms of the event loop with the garbage it left (issue 44.1).
  batchSize = 100,
): AsyncGenerator<repo.DatasetRow[]> {
  let afterId = 0;
  // The first batch is small, so the first rows go out at once; the rest in full batches.
  let limit = Math.min(FIRST_BATCH, batchSize);
  for (;;) {
    const rows = await repo.listDatasets(db, { ...f, afterId, order: 'id', limit });
    if (rows.length === 0) return;
    yield rows;
    if (rows.length < limit) return;
    afterId = rows[rows.length - 1]!.spec.id;
    limit = batchSize;
  }
}

const FIRST_BATCH = 50;

/** Datasets in the read API's shape, for modules that hand them on (exports). */
export const listPresentedDatasets = async (db: DbOrTx, f: repo.DatasetFilter) =>
  (await repo.listDatasets(db, f)).map(presentDataset);

/**
 * The same list as `listPresentedDatasets` without limit or offset, read a page of ids at a time
 * with the event loop free between pages (a release reads the whole catalogue: seconds in one
 * query at 100× the demo data, on this thread with the embedded database). Pass a transaction for
 * one snapshot.
 */
export async function listPresentedDatasetsInPages(
  db: DbOrTx,
  f: Omit<repo.DatasetFilter, 'limit' | 'offset' | 'order'>,
  pageSize = 250,
) {
  const out: ReturnType<typeof presentDataset>[] = [];
  for await (const page of presentedDatasetPages(db, f, pageSize)) for (const d of page) out.push(d);
  return out;
}

/**
 * The presented datasets in the catalogue's order, a page at a time with the event loop free
 * between pages: a file can send each page as it is read (issue 44.2) instead of after the last.
 */
export async function* presentedDatasetPages(
  db: DbOrTx,
  f: Omit<repo.DatasetFilter, 'limit' | 'offset' | 'order'>,
  pageSize = 250,
): AsyncGenerator<ReturnType<typeof presentDataset>[]> {
  const ids = await repo.listDatasetIdsByName(db, f);
  for (let i = 0; i < ids.length; i += pageSize) {
    await new Promise((resolve) => setImmediate(resolve));
    // Each page is a run of the whole order, which the ids filter keeps within the page.
    yield (await repo.listDatasets(db, { ...f, ids: ids.slice(i, i + pageSize) })).map(presentDataset);
  }
}

/** The 14 BIVAC grades of a stored dataset, keyed by checklist item. */

/** How the whole-catalogue dataset answers are kept (for modules that send one: exports). */
