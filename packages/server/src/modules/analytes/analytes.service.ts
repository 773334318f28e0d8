import type { Analyte, AnalyteWithCount } from '@bvdb/contract';
import type { DbOrTx } from '../../db/client.js';
import type { JsonFragment } from '../../lib/contract-json.js';
import { analyteWithCountJson } from './analyte-fragments.js';
import { presentAnalyte, presentAnalyteWithCount } from './analytes.presenter.js';
import * as repo from './analytes.repository.js';

type AnalyteRow = Awaited<ReturnType<typeof repo.listAllAnalytes>>[number];

/** The measurands module's face for its own routes and for other modules (never its repository). */
export const findAnalyte = (db: DbOrTx, id: number) => repo.findAnalyte(db, id);
export const findAnalytesByIds = (db: DbOrTx, ids: number[]) => repo.findAnalytesByIds(db, ids);

export async function getAnalyte(db: DbOrTx, id: number): Promise<Analyte | undefined> {
  const row = await repo.findAnalyte(db, id);
  return row && presentAnalyte(row);
}

/** Every measurand with the number of datasets the caller can see (signed in: unpublished too). */
export async function listAnalytesWithCounts(db: DbOrTx, signedIn: boolean): Promise<AnalyteWithCount[]> {
  return (await repo.listAnalytesWithCounts(db, signedIn)).map(presentAnalyteWithCount);
}

/**
 * The measurands `rows` (in that order) with the number of datasets the caller can see for each,
 * counted for these measurands only (a search's matches, not the whole catalogue).
 */
export async function withDatasetCounts(
  db: DbOrTx,
  rows: AnalyteRow[],
  signedIn: boolean,
): Promise<AnalyteWithCount[]> {
  const counts = await repo.countDatasetsOfAnalytes(
    db,
    rows.map((r) => r.id),
    signedIn,
  );
  return presentWithCounts(rows, new Map(counts.map((c) => [c.analyteId, c.n])));
}

/** `presentWithCounts` as JSON fragments, each made once per kept row and count (decision 071). */
export function withCountsJson(rows: AnalyteRow[], countOf: Map<number, number>): JsonFragment[] {
  return rows.map((analyte) => analyteWithCountJson(analyte, countOf.get(analyte.id) ?? 0));
}

/** The measurands `rows` (in that order) with their counts from `countOf` (absent: none). */
export function presentWithCounts(rows: AnalyteRow[], countOf: Map<number, number>): AnalyteWithCount[] {
  return rows.map((analyte) => presentAnalyteWithCount({ analyte, count: countOf.get(analyte.id) ?? 0 }));
}

export async function findAnalyteWithCount(
  db: DbOrTx,
  id: number,
  signedIn: boolean,
): Promise<AnalyteWithCount | undefined> {
  const found = await repo.findAnalyteWithCount(db, id, signedIn);
  return found && presentAnalyteWithCount(found);
}

export const listAllAnalytes = (db: DbOrTx) => repo.listAllAnalytes(db);

/** Published datasets with their measurand: all, or those of `ids` still published (decision 066). */
export const listPublishedDatasetOwners = (db: DbOrTx, ids?: number[]) =>
  repo.listPublishedDatasetOwners(db, ids);

/** Whether the catalogue holds demo records (the site then shows its demo banner). */
export const hasDemoMeasurands = (db: DbOrTx): Promise<boolean> => repo.hasDemoAnalytes(db);

/** A stored measurand in the read API's shape, for modules that list measurands beside their records. */
