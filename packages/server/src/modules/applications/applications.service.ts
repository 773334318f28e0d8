import type { ApplicationsQuery } from '@bvdb/contract';
import { workbenchRow, workbenchZ, type WorkbenchRow } from '@bvdb/domain';
import type { ServiceDeps } from '../../lib/service-deps.js';
import { headlineOf, listMetaPage, workbenchEstimateOf, type MetaRow } from '../meta-analysis/index.js';

type Deps = Pick<ServiceDeps, 'db'>;

/** One measurand in one matrix (or consolidation): its two estimates and the table's values. */
export interface ApplicationsGroup {
  analyteId: number;
  analyteName: string;
  matrix: string;
  matrixId: number | null;
  consolidationId: number | null;
  headline: boolean;
  cvi: MetaRow | null;
  cvg: MetaRow | null;
  values: WorkbenchRow;
}

const keyOf = (m: MetaRow['meta']) =>
  m.matrixId !== null ? `m${m.matrixId}` : `c${m.matrixConsolidationId ?? 0}`;

/**
 * The summary table "BV and performance specifications" (issue 32.1): every displayed result grouped
 * by measurand and matrix; by default only each measurand's headline matrix (decision 007), with
 * `matrices: 'all'` every matrix. Ordered by measurand name, the headline matrix first. Values from
 * the domain's `workbenchRow` (APS, RCV, II and their ranges over the limits, issue 32.5).
 */
export async function buildApplications(deps: Deps, query: ApplicationsQuery) {
  const z = workbenchZ(query.probability);
  const { rows } = await listMetaPage(deps, {});
  // listMetaPage orders by measurand name, so the groups are too; the headline matrix leads.
  return { z, groups: await groupApplicationsInSteps(rows, query) };
}

/** Results grouped per step before the event loop is let go (decision 085). */
const GROUP_STEP = 500;

/**
 * `groupApplications` of every displayed result, a step of about GROUP_STEP results at a time with
 * the event loop free between steps: at 100× the demo data the whole table held it for hundreds
 * of milliseconds (decision 085). A step ends at a measurand's last result, and a measurand's
 * groups depend on its own results only, so the groups are those of one call.
 */
async function groupApplicationsInSteps(
  rows: readonly MetaRow[],
  query: ApplicationsQuery,
): Promise<ApplicationsGroup[]> {
  const groups: ApplicationsGroup[] = [];
  let from = 0;
  while (from < rows.length) {
    let to = Math.min(from + GROUP_STEP, rows.length);
    while (to < rows.length && rows[to]!.meta.analyteId === rows[to - 1]!.meta.analyteId) to++;
    if (from > 0) await new Promise((resolve) => setImmediate(resolve));
    for (const g of groupApplications(rows.slice(from, to), query)) groups.push(g);
    from = to;
  }
  return groups;
}

/**
 * Displayed results (in the order of `listMetaPage`: by measurand name, matrix, type) as the summary
 * table's groups. Also used for a few measurands at a time (the menu's catalogue, decision 066).
 */
export function groupApplications(rows: readonly MetaRow[], query: ApplicationsQuery): ApplicationsGroup[] {
  const byAnalyte = new Map<number, MetaRow[]>();
  for (const r of rows) {
    const list = byAnalyte.get(r.meta.analyteId) ?? [];
    list.push(r);
    byAnalyte.set(r.meta.analyteId, list);
  }
  const groups: ApplicationsGroup[] = [];
  for (const results of byAnalyte.values()) {
    const headline = headlineOf(results);
    const headlineKey = headline
      ? headline.matrixId !== null
        ? `m${headline.matrixId}`
        : `c${headline.consolidationId ?? 0}`
      : null;
    const byMatrix = new Map<string, MetaRow[]>();
    for (const r of results) byMatrix.set(keyOf(r.meta), [...(byMatrix.get(keyOf(r.meta)) ?? []), r]);
    const keys = [...byMatrix.keys()].filter((k) => query.matrices === 'all' || k === headlineKey);
    keys.sort((a, b) => Number(b === headlineKey) - Number(a === headlineKey));
    for (const key of keys) {
      const ofMatrix = byMatrix.get(key) ?? [];
      const first = ofMatrix[0]!;
      const cvi = ofMatrix.find((r) => r.meta.varType === ':cvi') ?? null;
      const cvg = ofMatrix.find((r) => r.meta.varType === ':cvg') ?? null;
      groups.push({
        analyteId: first.meta.analyteId,
        analyteName: first.analyteName,
        matrix: first.matrixName ?? first.consolidationName ?? 'Unknown',
        matrixId: first.meta.matrixId,
        consolidationId: first.meta.matrixConsolidationId,
        headline: key === headlineKey,
        cvi,
        cvg,
        values: workbenchRow({
          cvi: workbenchEstimateOf(cvi),
          cvg: workbenchEstimateOf(cvg),
          level: query.level,
          probability: query.probability,
          cva: query.cva ?? null,
        }),
      });
    }
  }
  return groups;
}
