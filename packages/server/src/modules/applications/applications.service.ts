import type { ApplicationsQuery } from '@bvdb/contract';
import { limitsKindOf, workbenchRow, workbenchZ, type WorkbenchRow } from '@bvdb/domain';
import type { ServiceDeps } from '../../lib/service-deps.js';
import { facetSelectionOf, type FacetQuery } from '@bvdb/contract';
import {
  forEachMeasurandInSteps,
  headlineOf,
  keptFacetedEstimates,
  listMetaPage,
  populationOf,
  populationResultOf,
  studiesOf,
  workbenchEstimateOf,
  type FacetResult,
  type MetaRow,
  type Population,
} from '../meta-analysis/index.js';

type Deps = Pick<ServiceDeps, 'db' | 'cache'>;

/** The table's parameters; the facets (issue 47.3) may be left out. */
export type ApplicationsAsked = Pick<ApplicationsQuery, 'level' | 'probability' | 'cva' | 'matrices'> &
  Partial<FacetQuery>;

/** A group's estimates for a population (issue 47.3): recomputed, never the global ones. */
export interface PopulationOfGroup {
  cvi: FacetResult | null;
  cvg: FacetResult | null;
  /** Studies behind the two estimates (0: the population has none here). */
  studies: number;
}

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
  /** With facets: the population's estimates; `values` are then computed from them. */
  population?: PopulationOfGroup;
}

const keyOf = (m: MetaRow['meta']) =>
  m.matrixId !== null ? `m${m.matrixId}` : `c${m.matrixConsolidationId ?? 0}`;

/**
 * The summary table "BV and performance specifications" (issue 32.1): every displayed result grouped
 * by measurand and matrix; by default only each measurand's headline matrix (decision 007), with
 * `matrices: 'all'` every matrix. Ordered by measurand name, the headline matrix first. Values from
 * the domain's `workbenchRow` (APS, RCV, II and their ranges over the limits, issue 32.5).
 */
export async function buildApplications(deps: Deps, query: ApplicationsAsked) {
  const z = workbenchZ(query.probability);
  // Checked before any work: an unknown facet value is a 400 naming the allowed ones.
  const population = await populationOf(deps.db, facetSelectionOf(query));
  const { rows } = await listMetaPage(deps, {});
  // listMetaPage orders by measurand name, so the groups are too; the headline matrix leads.
  const groups = await groupApplicationsInSteps(rows, query);
  return {
    z,
    groups: population ? await withPopulation(deps, groups, population, query) : groups,
    population,
  };
}

/**
 * The groups with a population's estimates in place of the global ones (issue 47.3): each
 * measurand's faceted estimates from what the facet service keeps (one computation per measurand and
 * facet set per data generation), the event loop let go between measurands. A group the population
 * has no estimate for keeps its row, with no values and a note: never the global estimate.
 */
export async function withPopulation(
  deps: Deps,
  groups: readonly ApplicationsGroup[],
  population: Population,
  query: Pick<ApplicationsQuery, 'level' | 'probability' | 'cva'>,
): Promise<ApplicationsGroup[]> {
  const byAnalyte = new Map<number, ApplicationsGroup[]>();
  for (const g of groups) byAnalyte.set(g.analyteId, [...(byAnalyte.get(g.analyteId) ?? []), g]);
  const out = new Map<ApplicationsGroup, ApplicationsGroup>();
  await forEachMeasurandInSteps([...byAnalyte], async ([analyteId, ofAnalyte]) => {
    const estimates = await keptFacetedEstimates(deps, analyteId, population.selection);
    for (const g of ofAnalyte) out.set(g, populationGroup(g, estimates, query));
  });
  return groups.map((g) => out.get(g)!);
}

function populationGroup(
  g: ApplicationsGroup,
  estimates: Parameters<typeof populationResultOf>[0],
  query: Pick<ApplicationsQuery, 'level' | 'probability' | 'cva'>,
): ApplicationsGroup {
  const cvi = populationResultOf(estimates, g, ':cvi');
  const cvg = populationResultOf(estimates, g, ':cvg');
  return {
    ...g,
    values: workbenchRow({
      cvi: populationEstimateOf(cvi),
      cvg: populationEstimateOf(cvg),
      level: query.level,
      probability: query.probability,
      cva: query.cva ?? null,
    }),
    population: { cvi, cvg, studies: studiesOf(cvi, cvg) },
  };
}

/** A population's result as the domain's estimate, as `workbenchEstimateOf` for a stored one. */
const populationEstimateOf = (r: FacetResult | null) =>
  r && r.result.weightedMedian !== null
    ? {
        median: r.result.weightedMedian,
        lower: r.result.rangeLower,
        upper: r.result.rangeUpper,
        limits: limitsKindOf(r.result.method),
      }
    : null;

/** Results grouped per step before the event loop is let go (decision 085). */
const GROUP_STEP = 250;

/**
 * `groupApplications` of every displayed result, a step of about GROUP_STEP results at a time with
 * the event loop free between steps: at 100× the demo data the whole table held it for hundreds
 * of milliseconds (decision 085); the loop is let go before the first step too. A step ends at a measurand's last result, and a measurand's
 * groups depend on its own results only, so the groups are those of one call.
 */
async function groupApplicationsInSteps(
  rows: readonly MetaRow[],
  query: ApplicationsAsked,
): Promise<ApplicationsGroup[]> {
  const groups: ApplicationsGroup[] = [];
  let from = 0;
  while (from < rows.length) {
    let to = Math.min(from + GROUP_STEP, rows.length);
    while (to < rows.length && rows[to]!.meta.analyteId === rows[to - 1]!.meta.analyteId) to++;
    // Also before the first step: the rows were just read and mapped in the turn that brought them.
    await new Promise((resolve) => setImmediate(resolve));
    for (const g of groupApplications(rows.slice(from, to), query)) groups.push(g);
    from = to;
  }
  return groups;
}

/**
 * Displayed results (in the order of `listMetaPage`: by measurand name, matrix, type) as the summary
 * table's groups. Also used for a few measurands at a time (the menu's catalogue, decision 066).
 */
export function groupApplications(rows: readonly MetaRow[], query: ApplicationsAsked): ApplicationsGroup[] {
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
