import { DATA_SCOPES } from '../../lib/response-cache.js';
import type { ServiceDeps } from '../../lib/service-deps.js';
import { listAllAnalytes } from '../analytes/analytes.service.js';
import { buildApplications, type ApplicationsGroup } from '../applications/applications.service.js';
import {
  estimateRefsOf,
  refKeyOf,
  type EstimateRefs,
} from '../meta-analysis/results/meta-results.service.js';
import { MenuCatalogue, type MenuCatalogueEntry } from '@bvdb/domain';
import { listPublishedDatasetCodes } from './menu.repository.js';

type Deps = Pick<ServiceDeps, 'db' | 'cache'>;

/** Everything a menu is matched and judged against, built once per data generation. */
export interface MenuData {
  catalogue: MenuCatalogue;
  /** Each measurand's groups (matrix → its estimates), by measurand id and matrix name. */
  groups: Map<number, Map<string, ApplicationsGroup>>;
  refs: EstimateRefs;
}

const codesOf = (...codes: (string | null)[]) => codes.filter((c): c is string => !!c && !!c.trim());

/**
 * The catalogue of a menu: every measurand with its names and codes (its own and its published
 * datasets'), and every matrix it has a displayed estimate in, the headline first (decision 007: the
 * same rule and rows as `/applications`, `matrices=all`).
 */
async function buildMenuData(deps: Deps): Promise<MenuData> {
  const [{ groups }, analytes, datasetCodes] = await Promise.all([
    buildApplications(deps, { level: 'desirable', probability: 0.95, matrices: 'all' }),
    listAllAnalytes(deps.db),
    listPublishedDatasetCodes(deps.db),
  ]);
  const byAnalyte = new Map<number, Map<string, ApplicationsGroup>>();
  for (const g of groups) {
    const m = byAnalyte.get(g.analyteId) ?? new Map<string, ApplicationsGroup>();
    // The headline comes first in the groups (buildApplications), so a Map keeps it first.
    if (!m.has(g.matrix)) m.set(g.matrix, g);
    byAnalyte.set(g.analyteId, m);
  }
  const extraCodes = new Map<number, string[]>();
  for (const d of datasetCodes) {
    extraCodes.set(d.analyteId, [
      ...(extraCodes.get(d.analyteId) ?? []),
      ...codesOf(d.loinc, d.npu, d.snomedCt),
    ]);
  }
  const entries: MenuCatalogueEntry[] = analytes.map((a) => ({
    measurandId: a.id,
    displayName: a.displayName,
    names: [a.displayName, ...(a.fullName ? [a.fullName] : []), ...a.alternateNames],
    codes: [...codesOf(a.loinc, a.npu, a.snomedCt), ...(extraCodes.get(a.id) ?? [])],
    matrices: [...(byAnalyte.get(a.id)?.keys() ?? [])],
  }));
  const refs = await estimateRefsOf(deps, [...byAnalyte.keys()]);
  return { catalogue: new MenuCatalogue(entries), groups: byAnalyte, refs };
}

/**
 * Kept per data generation: a menu of 200 tests reads nothing when nothing changed, and any write
 * (a measurand, a dataset, a recompute) makes the next menu read the catalogue again.
 */
export class MenuDataSource {
  private kept: { generation: number; data: Promise<MenuData> } | undefined;

  constructor(private readonly deps: Deps) {}

  current(): Promise<MenuData> {
    const generation = this.deps.cache.stampOf(DATA_SCOPES);
    if (this.kept?.generation !== generation) {
      const data = buildMenuData(this.deps);
      const kept = { generation, data };
      this.kept = kept;
      // A failed read is not kept: the next menu asks again.
      data.catch(() => {
        if (this.kept === kept) this.kept = undefined;
      });
    }
    return this.kept.data;
  }
}

export { refKeyOf };
