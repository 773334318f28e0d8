import type { Reference } from '@bvdb/contract';
import type { DbOrTx } from '../../db/client.js';
import { presentReference, presentReferencePage } from './references.presenter.js';
import * as repo from './references.repository.js';

/** The references module's face for its routes and for other modules (never its repository). */
export const findReference = (db: DbOrTx, id: number) => repo.findReference(db, id);

/** References' titles by id, in one read (a release's notes name thousands at 100× the demo). */
export const findReferenceTitles = (db: DbOrTx, ids: number[]) => repo.findReferenceTitles(db, ids);

/** A reference with how many datasets the caller can see use it. */
export async function getReference(
  db: DbOrTx,
  id: number,
  signedIn: boolean,
): Promise<Reference | undefined> {
  const row = await repo.findReference(db, id);
  if (!row) return undefined;
  return presentReference(row, await repo.countDatasetsOfReference(db, id, signedIn));
}

/** Every reference matching the search (all of them without one), newest first. */
export async function listReferences(db: DbOrTx, opts: { signedIn: boolean; search?: string | undefined }) {
  const rows = await repo.listReferences(db, {
    signedIn: opts.signedIn,
    ...(opts.search ? { search: opts.search } : {}),
  });
  return rows.map((r) => presentReference(r.reference, r.usedIn));
}

/** One page of the references matching the search, with its pagination block. */
export async function listReferencesPage(
  db: DbOrTx,
  opts: { signedIn: boolean; search?: string | undefined; page: number; perPage: number },
) {
  const { page, perPage } = opts;
  const total = await repo.countReferences(db, opts.search);
  const rows = await repo.listReferences(db, {
    signedIn: opts.signedIn,
    ...(opts.search ? { search: opts.search } : {}),
    limit: perPage,
    offset: (page - 1) * perPage,
  });
  return presentReferencePage(rows, { total, page, perPage });
}

export const listReferenceKeys = (db: DbOrTx) => repo.listReferenceKeys(db);
