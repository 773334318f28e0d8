import type { DbOrTx } from '../db/client.js';
import * as analytes from '../modules/analytes/analytes.service.js';
import { appraisalExists } from '../modules/appraisals/appraisals.service.js';
import * as datasets from '../modules/datasets/datasets.service.js';
import { keptMenuExists } from '../modules/menu/kept-menus.service.js';
import * as references from '../modules/references/references.service.js';
import type { PageRecord } from './page-preloads.js';

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
 * Whether the record a page is about exists for this visitor, asked of the record's own module
 * (its service, as its API route does): a measurand, a reference, or a dataset the visitor may see
 * (published ones only, unless `seesUnpublished`), an appraisal (whoever it is assigned to: its page
 * asks to sign in, and the API answers 403 to others), or a kept menu. An id the API would refuse is
 * no record.
 */
export async function pageRecordExists(
  db: DbOrTx,
  kind: PageRecord,
  rawId: string,
  seesUnpublished: boolean,
): Promise<boolean> {
  if (kind === 'kept-menu') return isMenuId(rawId) && keptMenuExists(db, rawId);
  const id = idOf(rawId);
  if (id === null) return false;
  switch (kind) {
    case 'measurand':
      return (await analytes.findAnalyte(db, id)) !== undefined;
    case 'reference':
      return (await references.findReference(db, id)) !== undefined;
    case 'dataset':
      return (await datasets.findVisibleDataset(db, id, seesUnpublished)) !== undefined;
    case 'appraisal':
      return appraisalExists(db, id);
  }
}
