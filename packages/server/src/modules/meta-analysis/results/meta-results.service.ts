import type { MetaRecord, VarType } from '@bvdb/contract';
import { headlineMatrixOf, limitsKindOf, type WorkbenchEstimate } from '@bvdb/domain';
import type { DbOrTx } from '../../../db/client.js';
import { AppError, notFound } from '../../../lib/app-error.js';
import type { ServiceDeps } from '../../../lib/service-deps.js';
import { findAnalyte, findAnalytesByIds } from '../../analytes/index.js';
import {
  currentVersionsOf,
  keyOf,
  listShownAsOf,
  type EstimateRow,
  type VersionRow,
} from '../../estimates/index.js';
import { findMatricesByIds, findMatrix, listConsolidationMembers } from '../../lookups/index.js';
import { presentMeta, type Headline } from './meta-results.presenter.js';
import * as repo from './meta-results.repository.js';
import type { MetaPage, MetaRow } from './meta-results.repository.js';

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
  // Grouped once: filtering every link per result is quadratic (seconds at 100× the demo data).
  const linksOf = new Map<number, typeof links>();
  for (const l of links) {
    const list = linksOf.get(l.metaId);
    if (list) list.push(l);
    else linksOf.set(l.metaId, [l]);
  }
  return rows.map((r) => ({
    ...presentMeta(r, linksOf.get(r.meta.id) ?? []),
    analyte: r.analyteName,
  }));
}

/** Every displayed result, presented (the whole-database export). */
export const listPresentedMetas = async (db: DbOrTx) =>
  presentWithDatasets(db, await repo.listDisplayedMetas(db));

/**
 * Every displayed result, presented, in the same order, a page at a time with the event loop free
 * between pages (a release at 100× the demo data). Pass a transaction for one snapshot.
 */
export async function listPresentedMetasInPages(db: DbOrTx, pageSize = 1000) {
  const out: (MetaRecord & { analyte: string })[] = [];
  for (let offset = 0; ; offset += pageSize) {
    await new Promise((resolve) => setImmediate(resolve));
    const rows = await repo.listDisplayedMetas(db, { limit: pageSize, offset });
    out.push(...(await presentWithDatasets(db, rows)));
    if (rows.length < pageSize) return out;
  }
}

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

/** One page of the displayed results (by measurand name, matrix, type), and how many match in all. */
export async function listMetaPage(deps: Deps, page: MetaPage) {
  const [rows, total] = await Promise.all([
    repo.listDisplayedMetas(deps.db, page),
    repo.countDisplayedMetasSince(deps.db, page.updatedSince),
  ]);
  return { rows, total };
}

/** A result whose three numbers are all there (always so when any study was used). */
export const isComplete = (r: MetaRow) =>
  r.meta.median !== null && r.meta.lower !== null && r.meta.upper !== null;

/** These measurands' displayed results, in the order of `listMetaPage` (decision 066). */
export const listDisplayedMetasOf = (deps: Deps, analyteIds: number[]) =>
  analyteIds.length === 0 ? Promise.resolve([]) : repo.listDisplayedMetas(deps.db, { analyteIds });

/** Each displayed result's id, measurand and `updated_at`: a kept catalogue finds what moved. */
export const listDisplayedMetaStamps = (deps: Deps) => repo.listDisplayedMetaStamps(deps.db);

/** The headline matrix of one measurand's displayed results, by the one rule (decision 007). */
export function headlineOf(rows: MetaRow[]): Headline | null {
  const pick = headlineMatrixOf(
    rows.map((r) => ({
      matrixKey: r.meta.matrixId ?? r.meta.matrixConsolidationId ?? 0,
      consolidated: r.meta.matrixId === null,
      varType: r.meta.varType as VarType,
      median: r.meta.median,
      numberUsed: r.meta.numberUsed,
    })),
  );
  if (!pick) return null;
  const ofMatrix = rows.filter((r) =>
    pick.consolidated
      ? r.meta.matrixId === null && r.meta.matrixConsolidationId === pick.matrixKey
      : r.meta.matrixId === pick.matrixKey,
  );
  const ofType = (t: VarType) => ofMatrix.find((r) => r.meta.varType === t && isComplete(r));
  return {
    matrixId: pick.consolidated ? null : pick.matrixKey,
    consolidationId: pick.consolidated ? pick.matrixKey : null,
    cvi: ofType(':cvi'),
    cvg: ofType(':cvg'),
  };
}

/**
 * Measurands with displayed results, each with its headline (ordered by id), and how many match.
 * Without `limit` every such measurand is read, with all results in one query.
 */
export async function listHeadlines(deps: Deps, page: MetaPage = {}) {
  const { rows: analytes, total } = await repo.listAnalytesWithResults(deps.db, page);
  const paged =
    page.limit !== undefined ||
    page.offset !== undefined ||
    page.updatedSince !== undefined ||
    page.analyteIds !== undefined;
  const metas = await repo.listDisplayedMetasOfAnalytes(
    deps.db,
    paged ? analytes.map((a) => a.id) : undefined,
  );
  const byAnalyte = new Map<number, MetaRow[]>();
  for (const m of metas) {
    const list = byAnalyte.get(m.meta.analyteId) ?? [];
    list.push(m);
    byAnalyte.set(m.meta.analyteId, list);
  }
  return {
    total,
    items: analytes.map((analyte) => ({ analyte, headline: headlineOf(byAnalyte.get(analyte.id) ?? []) })),
  };
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

/** A measurand's displayed results (with their datasets) and its headline matrix. */
export async function getResultsOfAnalyte(deps: Deps, analyteId: number) {
  const results = await listResultsOfAnalyte(deps, analyteId);
  return { results, headline: headlineOf(results.map((r) => r.row).filter((r) => r.meta.median !== null)) };
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

/** The estimate id and version of each result, by the result's key (decision 052). */
export type EstimateRefs = Map<string, { estimateId: number; version: number }>;

export const refKeyOf = (m: MetaRow['meta']) =>
  keyOf({
    analyteId: m.analyteId,
    matrixId: m.matrixId,
    matrixConsolidationId: m.matrixConsolidationId,
    varType: m.varType,
  });

/** The current estimate ids and versions of these measurands' results. */
export const estimateRefsOf = (deps: Deps, analyteIds: number[]): Promise<EstimateRefs> =>
  currentVersionsOf(deps.db, analyteIds);

type DatasetLink = Awaited<ReturnType<typeof repo.listDatasetsOfMetas>>[number];

/** A past version in the shape of a stored result, so the same presenter and headline rule apply. */
function rowOfVersion(
  analyteName: string,
  e: EstimateRow,
  v: VersionRow,
  names: { matrix: Map<number, string>; consolidation: Map<number, string> },
): MetaRow {
  return {
    meta: {
      id: v.metaId ?? 0,
      name: v.name,
      analyteId: e.analyteId,
      matrixId: e.matrixId,
      matrixConsolidationId: e.matrixConsolidationId,
      varType: e.varType,
      median: v.median,
      lower: v.lower,
      upper: v.upper,
      numberUsed: v.numberUsed,
      method: v.method,
      seed: v.seed,
      comments: null,
      display: true,
      referenceIds: v.referenceIds,
      computedAt: v.computedAt,
      createdAt: e.createdAt,
      updatedAt: v.computedAt,
    },
    analyteName,
    matrixName: e.matrixId === null ? null : (names.matrix.get(e.matrixId) ?? null),
    consolidationName:
      e.matrixConsolidationId === null ? null : (names.consolidation.get(e.matrixConsolidationId) ?? null),
  };
}

/**
 * What the measurand's results were at `asOf` (decision 052): each estimate's version in force
 * then, presented like the stored results, and the headline by the same rule. 404 when the
 * measurand had no estimate yet.
 */
export async function getResultsOfAnalyteAsOf(deps: Deps, analyteId: number, asOf: Date) {
  const analyte = await requireAnalyte(deps, analyteId);
  const shown = await listShownAsOf(deps.db, asOf, analyteId);
  if (shown.length === 0) {
    throw new AppError(
      'not_found',
      `Measurand ${analyteId} had no estimate on ${asOf.toISOString()}: its history starts later`,
    );
  }
  return presentShown(deps, shown, new Map([[analyte.id, analyte.displayName]]));
}

/**
 * Every measurand with an estimate shown at `asOf`, each with its headline then, ordered by id and
 * paged like `listHeadlines` (`updatedSince` compares the headline's latest version).
 */
export async function listHeadlinesAsOf(
  deps: Deps,
  page: Required<Pick<MetaPage, 'limit' | 'offset'>> & MetaPage,
  asOf: Date,
) {
  const shown = await listShownAsOf(deps.db, asOf);
  const analytes = await findAnalytesByIds(deps.db, [...new Set(shown.map((s) => s.estimate.analyteId))]);
  const { results } = await presentShown(deps, shown, new Map(analytes.map((a) => [a.id, a.displayName])));
  const byAnalyte = new Map<number, typeof results>();
  for (const r of results) {
    const list = byAnalyte.get(r.row.meta.analyteId) ?? [];
    list.push(r);
    byAnalyte.set(r.row.meta.analyteId, list);
  }
  const items = analytes
    .sort((a, b) => a.id - b.id)
    .map((analyte) => {
      const of = byAnalyte.get(analyte.id) ?? [];
      const headline = headlineOf(of.map((r) => r.row).filter((r) => r.meta.median !== null));
      const stamps = [headline?.cvi, headline?.cvg].map((r) => r?.meta.updatedAt.getTime() ?? 0);
      return { analyte, headline, results: of, updatedAt: new Date(Math.max(...stamps)) };
    })
    .filter((i) => i.headline !== null && (!page.updatedSince || i.updatedAt >= page.updatedSince));
  return { total: items.length, items: items.slice(page.offset, page.offset + page.limit) };
}

/** Versions in force, as stored results with their datasets and estimate refs, in the stored order. */
async function presentShown(
  deps: Deps,
  shown: Awaited<ReturnType<typeof listShownAsOf>>,
  analyteNames: Map<number, string>,
) {
  const matrixIds = [
    ...new Set(shown.map((s) => s.estimate.matrixId).filter((id): id is number => id !== null)),
  ];
  const [matrices, members] = await Promise.all([
    findMatricesByIds(deps.db, matrixIds),
    listConsolidationMembers(deps.db),
  ]);
  const names = {
    matrix: new Map(matrices.map((m) => [m.id, m.matrixExpansion])),
    consolidation: new Map(members.map((m) => [m.id, m.name])),
  };
  const referenceIds = [...new Set(shown.flatMap((s) => s.version.datasets.map((d) => d.reference_id)))];
  const titles = new Map(
    (
      await repo.listReferenceTitles(
        deps.db,
        referenceIds.filter((id): id is number => id !== null),
      )
    ).map((r) => [r.id, r.title]),
  );
  const order = (r: MetaRow) =>
    [r.meta.matrixId ?? Infinity, r.meta.matrixConsolidationId ?? Infinity, r.meta.varType] as const;
  const results = shown
    .map(({ estimate, version }) => {
      const row = rowOfVersion(analyteNames.get(estimate.analyteId) ?? '', estimate, version, names);
      const links: DatasetLink[] = version.datasets.map((d) => ({
        metaId: row.meta.id,
        bvSpecificationId: d.id,
        studyId: d.study_id,
        grade: d.grade,
        cv: d.value,
        ciLower: d.ci_lower,
        ciUpper: d.ci_upper,
        weight: d.weight,
        referenceId: d.reference_id ?? 0,
        referenceTitle: (d.reference_id !== null && titles.get(d.reference_id)) || '',
      }));
      return { row, links, ref: { estimateId: estimate.id, version: version.version } };
    })
    .sort((a, b) => {
      const [x, y] = [order(a.row), order(b.row)];
      return (
        a.row.meta.analyteId - b.row.meta.analyteId || x[0] - y[0] || x[1] - y[1] || x[2].localeCompare(y[2])
      );
    });
  return {
    results,
    headline: headlineOf(results.map((r) => r.row).filter((r) => r.meta.median !== null)),
  };
}

/**
 * A stored result as the domain's estimate (its median, limits and what they are): what the
 * workbench's summary table and a laboratory's menu compute with (issue 32).
 */
export const workbenchEstimateOf = (row: MetaRow | null): WorkbenchEstimate | null =>
  row && row.meta.median !== null
    ? {
        median: row.meta.median,
        lower: row.meta.lower,
        upper: row.meta.upper,
        limits: limitsKindOf(row.meta.method),
      }
    : null;
