import {
  APPLICATIONS_SOURCES,
  type Applications,
  type ApplicationsQuery,
  type ApplicationsRow,
} from '@bvdb/contract';
import { limitsKindOf, type WorkbenchValue } from '@bvdb/domain';
import {
  NO_POPULATION_ESTIMATE,
  populationRowSentence,
  populationSentence,
  type FacetResult,
  type MetaRow,
  type Population,
} from '../meta-analysis/index.js';
import type { ApplicationsGroup } from './applications.service.js';

const estimate = (row: MetaRow | null) =>
  row && row.meta.median !== null
    ? {
        id: row.meta.id,
        median: row.meta.median,
        lower: row.meta.lower,
        upper: row.meta.upper,
        limits: limitsKindOf(row.meta.method),
        number_used: row.meta.numberUsed,
        updated_at: row.meta.updatedAt.toISOString(),
      }
    : null;

/** A population's estimate (issue 47.3): no stored result behind it, so no id nor date. */
const populationEstimate = (r: FacetResult | null) =>
  r && r.result.weightedMedian !== null
    ? {
        id: null,
        median: r.result.weightedMedian,
        lower: r.result.rangeLower,
        upper: r.result.rangeUpper,
        limits: limitsKindOf(r.result.method),
        number_used: r.result.n,
        updated_at: null,
      }
    : null;

const value = (v: WorkbenchValue) => ({ value: v.value, range: v.range, why: v.why });

export function presentApplicationsRow(
  g: ApplicationsGroup,
  population?: Population | null,
): ApplicationsRow {
  const { aps, rcv, ii } = g.values;
  const row: ApplicationsRow = {
    measurand_id: g.analyteId,
    display_name: g.analyteName,
    matrix: g.matrix,
    matrix_id: g.matrixId,
    matrix_consolidation_id: g.consolidationId,
    headline: g.headline,
    cvi: g.population ? populationEstimate(g.population.cvi) : estimate(g.cvi),
    cvg: g.population ? populationEstimate(g.population.cvg) : estimate(g.cvg),
    aps: {
      imprecision: value(aps.imprecision),
      bias: value(aps.bias),
      total_error: value(aps.totalError),
      mau: value(aps.mau),
    },
    rcv: { up: value(rcv.up), down: value(rcv.down), cva: rcv.cva, cva_source: rcv.cvaSource },
    ii: value(ii),
  };
  if (population && g.population) {
    const { cvi, cvg, studies } = g.population;
    row.population = {
      key: population.key,
      studies,
      note: cvi || cvg ? null : NO_POPULATION_ESTIMATE,
      sentence: populationRowSentence(population, studies),
    };
  }
  return row;
}

export function presentApplications(
  query: ApplicationsQuery,
  z: number,
  groups: ApplicationsGroup[],
  population: Population | null = null,
): Applications {
  const table: Applications = {
    parameters: {
      level: query.level,
      probability: query.probability,
      z,
      cva: query.cva ?? null,
      matrices: query.matrices,
    },
    sources: { ...APPLICATIONS_SOURCES },
    data: groups.map((g) => presentApplicationsRow(g, population)),
  };
  // Only with facets: without them the answer is byte for byte what it was.
  if (population) {
    table.population = {
      selection: Object.fromEntries(Object.entries(population.selection).map(([k, v]) => [k, [...v]])),
      key: population.key,
      label: population.label,
      sentence: populationSentence(population),
    };
  }
  return table;
}
