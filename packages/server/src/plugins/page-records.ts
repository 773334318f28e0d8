import type { DbOrTx } from '../db/client.js';
import type { PageRecord } from './page-preloads.js';

/**
 * Whether a record a page is about exists, asked of the record's own module (its service, as its
 * API route does): the port through which the web app's plugin reaches the modules (decision 077),
 * implemented by the modules' faces and wired in app.ts. A dataset counts only when the visitor may
 * see it (published ones only, unless `seesUnpublished`); an appraisal whoever it is assigned to
 * (its page asks to sign in, and the API answers 403 to others).
 */
export interface PageRecordLookups {
  measurand(db: DbOrTx, id: number): Promise<boolean>;
  reference(db: DbOrTx, id: number): Promise<boolean>;
  dataset(db: DbOrTx, id: number, seesUnpublished: boolean): Promise<boolean>;
  appraisal(db: DbOrTx, id: number): Promise<boolean>;
  keptMenu(db: DbOrTx, id: string): Promise<boolean>;
}

/** A record id as the API takes it: a whole number from 1 to 2147483647 (docs/api.md, Input). */
const MAX_ID = 2_147_483_647;

function idOf(raw: string): number | null {
  if (!/^[1-9]\d{0,9}$/.test(raw)) return null;
  const id = Number(raw);
  return id <= MAX_ID ? id : null;
}

/** A kept menu's link id as the service makes it: base64url, at most the contract's 100 characters. */
const isMenuId = (raw: string) => /^[A-Za-z0-9_-]{1,100}$/.test(raw);

/**
 * Whether the record a page is about exists for this visitor: a measurand, a reference, a dataset,
 * an appraisal or a kept menu, looked up through `lookups`. An id the API would refuse is no record.
 */
export async function pageRecordExists(
  lookups: PageRecordLookups,
  db: DbOrTx,
  kind: PageRecord,
  rawId: string,
  seesUnpublished: boolean,
): Promise<boolean> {
  if (kind === 'kept-menu') return isMenuId(rawId) && lookups.keptMenu(db, rawId);
  const id = idOf(rawId);
  if (id === null) return false;
  switch (kind) {
    case 'measurand':
      return lookups.measurand(db, id);
    case 'reference':
      return lookups.reference(db, id);
    case 'dataset':
      return lookups.dataset(db, id, seesUnpublished);
    case 'appraisal':
      return lookups.appraisal(db, id);
  }
}
