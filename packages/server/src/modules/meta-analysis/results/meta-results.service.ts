import type { MetaRecord } from '@bvdb/contract';
import type { DbOrTx } from '../../../db/client.js';
import { notFound } from '../../../lib/app-error.js';
import type { ServiceDeps } from '../../../lib/service-deps.js';
import { findAnalyte } from '../../analytes/analytes.service.js';
import { findMatrix } from '../../lookups/lookups.service.js';
import { presentMeta } from './meta-results.presenter.js';
import * as repo from './meta-results.repository.js';
import type { MetaRow } from './meta-results.repository.js';

type Deps = Pick<ServiceDeps, 'db'>;

/** Results with the datasets each was computed from, in the read API's shape, named by measurand. */
async function presentWithDatasets(
  db: DbOrTx,
  rows: MetaRow[],
): Promise<(MetaRecord & { analyte: string })[]> {
  const links = await repo.listDatasetsOfMetas(
    db,
    rows.map((r) => r.meta.id),
  );
  return rows.map((r) => ({
    ...presentMeta(
      r,
      links.filter((l) => l.metaId === r.meta.id),
    ),
    analyte: r.analyteName,
  }));
}

/** Every displayed result, presented (the whole-database export). */
export const listPresentedMetas = async (db: DbOrTx) =>
  presentWithDatasets(db, await repo.listDisplayedMetas(db));

/** One measurand's displayed results, presented (the per-measurand and per-reference exports). */
export const listPresentedMetasOfAnalyte = async (db: DbOrTx, analyteId: number) =>
  presentWithDatasets(db, await repo.listMetasOfAnalyte(db, analyteId));

/** The home page's counters; signed-in callers count the unpublished datasets too. */
export async function countRecords(deps: Deps, signedIn: boolean) {
  const [datasets, metas, references] = await Promise.all([
    repo.countPublishedDatasets(deps.db, signedIn),
    repo.countDisplayedMetas(deps.db),
    repo.countReferencesAll(deps.db),
  ]);
  return { datasets, metas, references };
}

/** One page of the displayed results, and how many results there are in all. */
export async function listMetaPage(deps: Deps, page: { limit?: number; offset?: number }) {
  const [rows, total] = await Promise.all([
    repo.listDisplayedMetas(deps.db, page),
    repo.countAllMetas(deps.db),
  ]);
  return { rows, total };
}

export async function requireAnalyte(deps: Deps, analyteId: number) {
  const analyte = await findAnalyte(deps.db, analyteId);
  if (!analyte) throw notFound(`Measurand ${analyteId}`);
  return analyte;
}

/** A measurand's displayed results with the datasets each was computed from. */
export async function listResultsOfAnalyte(deps: Deps, analyteId: number) {
  const rows = await repo.listMetasOfAnalyte(deps.db, analyteId);
  const links = await repo.listDatasetsOfMetas(
    deps.db,
    rows.map((r) => r.meta.id),
  );
  return rows.map((row) => ({ row, links: links.filter((l) => l.metaId === row.meta.id) }));
}

/** The results of one measurand, matrix and type, by id and name (404 for an unknown measurand or matrix). */
export async function listMetasOfMatrixType(
  deps: Deps,
  analyteId: number,
  matrixId: number,
  varType: string,
) {
  await requireAnalyte(deps, analyteId);
  if (!(await findMatrix(deps.db, matrixId))) throw notFound(`Matrix ${matrixId}`);
  return repo.listMetasOf(deps.db, analyteId, matrixId, varType);
}
