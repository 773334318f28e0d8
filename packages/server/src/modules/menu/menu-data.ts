import type { analytes } from '../../db/schema.js';
import { KeptByChanges } from '../../lib/kept-by-changes.js';
import { DATA_SCOPES } from '../../lib/response-cache.js';
import type { ServiceDeps } from '../../lib/service-deps.js';
import {
  alternativeNamesByMeasurand,
  codesByMeasurand,
  findAnalytesByIds,
  listAllAnalytes,
  listPublishedDatasetOwners,
} from '../analytes/index.js';
import { buildApplications, groupApplications, type ApplicationsGroup } from '../applications/index.js';
import { changeLogOf, type ChangedRecord } from '../changes/index.js';
import {
  estimateRefsOf,
  listDisplayedMetasOf,
  listDisplayedMetaStamps,
  refKeyOf,
  type EstimateRefs,
} from '../meta-analysis/index.js';
import { MenuCatalogue, normaliseCode, type MenuCatalogueEntry } from '@bvdb/domain';
import { listPublishedDatasetCodes } from './menu.repository.js';

type Deps = Pick<ServiceDeps, 'db' | 'cache'>;
type AnalyteRow = typeof analytes.$inferSelect;

/** Everything a menu is matched and judged against, kept across writes (decision 066). */
export interface MenuData {
  catalogue: MenuCatalogue;
  /** Each measurand's groups (matrix → its estimates), by measurand id and matrix name. */
  groups: Map<number, Map<string, ApplicationsGroup>>;
  refs: EstimateRefs;
  /**
   * The scale (UCUM unit) each stored code names, by measurand and code as compared
   * (`normaliseCode`): a change verdict checks the unit it is given against it (issue 45).
   */
  scales: Map<number, Map<string, string>>;
}

/** What the kept catalogue needs to follow writes: what it was made of, by measurand. */
interface Kept {
  data: MenuData;
  /** Published datasets → their measurand (a dataset moved to another measurand changes both). */
  owners: Map<number, number>;
  /** Each displayed result's measurand and `updated_at`, to find results a recompute moved. */
  metas: Map<number, { analyteId: number; updatedAt: number }>;
  /** The lookups' stamp when read: a matrix renamed reads everything again. */
  lookups: number;
  /** The results' stamp when compared. */
  metasStamp: number;
}

const codesOf = (...codes: (string | null)[]) => codes.filter((c): c is string => !!c && !!c.trim());

/** Measurands keyed per step when the catalogue is built whole. */
const CATALOGUE_STEP = 100;

/** The catalogue's query for `/applications`' groups: every matrix (decision 059). */
const ALL_MATRICES = { level: 'desirable', probability: 0.95, matrices: 'all' } as const;

function groupsByAnalyte(groups: readonly ApplicationsGroup[]): Map<number, Map<string, ApplicationsGroup>> {
  const byAnalyte = new Map<number, Map<string, ApplicationsGroup>>();
  for (const g of groups) {
    const m = byAnalyte.get(g.analyteId) ?? new Map<string, ApplicationsGroup>();
    // The headline comes first in the groups (groupApplications), so a Map keeps it first.
    if (!m.has(g.matrix)) m.set(g.matrix, g);
    byAnalyte.set(g.analyteId, m);
  }
  return byAnalyte;
}

/** The codes of each measurand beyond its record's: its published datasets' and its table of codes (decision 091). */
function codesByAnalyte(
  rows: Awaited<ReturnType<typeof listPublishedDatasetCodes>>,
  table: Map<number, { code: string }[]>,
): Map<number, string[]> {
  const extra = new Map<number, string[]>();
  for (const [id, codes] of table)
    extra.set(
      id,
      codes.map((c) => c.code),
    );
  for (const d of rows)
    extra.set(d.analyteId, [...(extra.get(d.analyteId) ?? []), ...codesOf(d.loinc, d.npu, d.snomedCt)]);
  return extra;
}

/** Each measurand's codes with a stored scale: code as compared → its UCUM unit. */
function scalesOf(table: Map<number, { code: string; ucum_unit: string | null }[]>) {
  const out = new Map<number, Map<string, string>>();
  for (const [id, codes] of table) {
    const mine = new Map<string, string>();
    for (const c of codes) if (c.ucum_unit?.trim()) mine.set(normaliseCode(c.code), c.ucum_unit.trim());
    if (mine.size > 0) out.set(id, mine);
  }
  return out;
}

const entryOf = (
  a: AnalyteRow,
  extraCodes: readonly string[],
  groups: Map<string, ApplicationsGroup> | undefined,
  alternativeNames: readonly string[] = [],
): MenuCatalogueEntry => ({
  measurandId: a.id,
  displayName: a.displayName,
  // The curators' alternative names (decision 083) beside the record's own.
  names: [a.displayName, ...(a.fullName ? [a.fullName] : []), ...a.alternateNames, ...alternativeNames],
  codes: [...codesOf(a.loinc, a.npu, a.snomedCt), ...extraCodes],
  matrices: [...(groups?.keys() ?? [])],
});

const metaStampsOf = (rows: Awaited<ReturnType<typeof listDisplayedMetaStamps>>) =>
  new Map(rows.map((r) => [r.id, { analyteId: r.analyteId, updatedAt: r.updatedAt.getTime() }]));

/**
 * The catalogue of a menu: every measurand with its names and codes (its own and its published
 * datasets'), and every matrix it has a displayed estimate in, the headline first (decision 007: the
 * same rule and rows as `/applications`, `matrices=all`).
 */
async function buildKept(deps: Deps): Promise<Kept> {
  const lookups = deps.cache.stampOf(['lookups']);
  const metasStamp = deps.cache.stampOf(['metas']);
  // One read after another, not all at once: answered together by PostgreSQL's pool, their rows
  // were turned into objects back to back, holding the event loop (issue 44.1); each reads in pages.
  const { groups } = await buildApplications(deps, ALL_MATRICES);
  const analyteRows = await listAllAnalytes(deps.db);
  const datasetCodes = await listPublishedDatasetCodes(deps.db);
  const owners = await listPublishedDatasetOwners(deps.db);
  const metas = await listDisplayedMetaStamps(deps);
  const names = await alternativeNamesByMeasurand(deps.db);
  const tableCodes = await codesByMeasurand(deps.db);
  const byAnalyte = groupsByAnalyte(groups);
  const extraCodes = codesByAnalyte(datasetCodes, tableCodes);
  const entries = [...analyteRows]
    .sort((a, b) => a.id - b.id)
    .map((a) => entryOf(a, extraCodes.get(a.id) ?? [], byAnalyte.get(a.id), names.get(a.id)));
  // Keyed a step of measurands at a time, the event loop free between steps (decision 085: 7,100
  // measurands at 100× in one go held it); an updated catalogue answers as one built whole.
  const catalogue = new MenuCatalogue([]);
  for (let i = 0; i < entries.length; i += CATALOGUE_STEP) {
    await new Promise((resolve) => setImmediate(resolve));
    catalogue.update(entries.slice(i, i + CATALOGUE_STEP));
  }
  const refs = await estimateRefsOf(deps, [...byAnalyte.keys()]);
  return {
    data: { catalogue, groups: byAnalyte, refs, scales: scalesOf(tableCodes) },
    owners: new Map(owners.map((o) => [o.id, o.analyteId])),
    metas: metaStampsOf(metas),
    lookups,
    metasStamp,
  };
}

/**
 * The measurands a batch of changes touched: a measurand's record, a dataset's measurand before and
 * after (its codes), an estimate's measurand; and, when the results moved, every measurand with a
 * displayed result added, removed or changed since the last look (a recompute that changed a result's
 * datasets but none of its published values writes no estimate version, so the log does not name it).
 */
async function touchedBy(deps: Deps, kept: Kept, changes: ChangedRecord[]) {
  const touched = new Set<number>();
  const datasets = new Set<number>();
  for (const c of changes) {
    if (c.entity === 'measurand') touched.add(c.entityId);
    else if (c.entity === 'estimate' && c.analyteId !== null) touched.add(c.analyteId);
    else if (c.entity === 'dataset') {
      datasets.add(c.entityId);
      if (c.analyteId !== null) touched.add(c.analyteId);
      const before = kept.owners.get(c.entityId);
      if (before !== undefined) touched.add(before);
    }
  }
  const metasStamp = deps.cache.stampOf(['metas']);
  let metas = kept.metas;
  if (metasStamp !== kept.metasStamp) {
    metas = metaStampsOf(await listDisplayedMetaStamps(deps));
    for (const [id, m] of metas) {
      const before = kept.metas.get(id);
      if (!before || before.updatedAt !== m.updatedAt || before.analyteId !== m.analyteId) {
        touched.add(m.analyteId);
        if (before) touched.add(before.analyteId);
      }
    }
    for (const [id, m] of kept.metas) if (!metas.has(id)) touched.add(m.analyteId);
  }
  const owners =
    datasets.size > 0
      ? await listPublishedDatasetOwners(deps.db, [...datasets])
      : ([] as { id: number; analyteId: number }[]);
  return { touched: [...touched], datasets: [...datasets], owners, metas, metasStamp };
}

/** The kept catalogue with only the measurands the changes touched read again (decision 066). */
async function applyChanges(deps: Deps, kept: Kept, changes: ChangedRecord[]): Promise<Kept | undefined> {
  // A matrix (or any lookup) renamed shows in every measurand's groups: read everything again.
  if (deps.cache.stampOf(['lookups']) !== kept.lookups) return undefined;
  const t = await touchedBy(deps, kept, changes);
  const ids = t.touched;
  kept.metas = t.metas;
  kept.metasStamp = t.metasStamp;
  if (ids.length === 0) return kept;
  const [rows, metaRows, codes, refs, names, tableCodes] = await Promise.all([
    findAnalytesByIds(deps.db, ids),
    listDisplayedMetasOf(deps, ids),
    listPublishedDatasetCodes(deps.db, ids),
    estimateRefsOf(deps, ids),
    alternativeNamesByMeasurand(deps.db, ids),
    codesByMeasurand(deps.db, ids),
  ]);
  // Every read is done: the change itself is one synchronous step (no menu sees half of it).
  const { data } = kept;
  const groups = groupsByAnalyte(groupApplications(metaRows, ALL_MATRICES));
  const extraCodes = codesByAnalyte(codes, tableCodes);
  const scales = scalesOf(tableCodes);
  for (const id of ids) {
    const scale = scales.get(id);
    if (scale) data.scales.set(id, scale);
    else data.scales.delete(id);
    for (const g of data.groups.get(id)?.values() ?? [])
      for (const row of [g.cvi, g.cvg]) if (row) data.refs.delete(refKeyOf(row.meta));
    const mine = groups.get(id);
    if (mine) data.groups.set(id, mine);
    else data.groups.delete(id);
  }
  for (const [key, ref] of refs) data.refs.set(key, ref);
  const present = new Set(rows.map((r) => r.id));
  data.catalogue.update(
    rows.map((a) => entryOf(a, extraCodes.get(a.id) ?? [], groups.get(a.id), names.get(a.id))),
    ids.filter((id) => !present.has(id)),
  );
  const now = new Map(t.owners.map((o) => [o.id, o.analyteId]));
  for (const id of t.datasets) {
    const owner = now.get(id);
    if (owner === undefined) kept.owners.delete(id);
    else kept.owners.set(id, owner);
  }
  return kept;
}

/**
 * The menu's catalogue, kept across writes: a menu of 200 tests reads nothing when nothing changed,
 * and a write makes the next menu read only the measurands it touched (decision 066). An import (past
 * the change limit), a lookup's change or a failure reads everything again.
 */
export class MenuDataSource {
  private readonly kept: KeptByChanges<Kept, ChangedRecord>;

  constructor(deps: Deps) {
    this.kept = new KeptByChanges<Kept, ChangedRecord>({
      stamp: () => deps.cache.stampOf(DATA_SCOPES),
      log: changeLogOf(deps.db),
      build: () => buildKept(deps),
      apply: (kept, changes) => applyChanges(deps, kept, changes),
    });
  }

  /** How the catalogue was last brought up to date: read whole, or updated from the log. */
  get lastRefresh(): 'built' | 'updated' | undefined {
    return this.kept.lastRefresh;
  }

  async current(): Promise<MenuData> {
    return (await this.kept.get()).data;
  }
}

export { refKeyOf };
