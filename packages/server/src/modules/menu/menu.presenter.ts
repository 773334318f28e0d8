import { MENU_SOURCES, type MenuResponse, type MenuTestResult } from '@bvdb/contract';
import {
  limitsKindOf,
  type ApsJudgement,
  type ApsMeasure,
  type MenuCandidate,
  type MenuMatch,
  type MenuTestResult as DomainResult,
  type WorkbenchValue,
} from '@bvdb/domain';
import { refKeyOf, type EstimateRefs, type MetaRow } from '../meta-analysis/index.js';
import type { MenuLine } from './menu-input.js';

const candidate = (c: MenuCandidate) => ({
  measurand_id: c.measurandId,
  display_name: c.displayName,
  matrix: c.matrix,
});

const measures = <T, U>(m: Record<ApsMeasure, T>, f: (t: T) => U) => ({
  imprecision: f(m.imprecision),
  bias: f(m.bias),
  total_error: f(m.totalError),
  mau: f(m.mau),
});
const levels = <T, U>(l: { optimal: T; desirable: T; minimum: T }, f: (t: T) => U) => ({
  optimal: f(l.optimal),
  desirable: f(l.desirable),
  minimum: f(l.minimum),
});
const value = (v: WorkbenchValue) => ({ value: v.value, range: v.range, why: v.why });
const same = (j: ApsJudgement | null) => j;

/**
 * The estimate a test used: its numbers, id and version (decision 052), its permalink (measurand,
 * matrix and type, decision 027) and the API's answer as the site showed it when the sheet was made.
 */
function estimateOf(row: MetaRow | null, matrix: string, refs: EstimateRefs, generatedAt: string) {
  if (!row || row.meta.median === null) return null;
  const ref = refs.get(refKeyOf(row.meta));
  return {
    id: row.meta.id,
    median: row.meta.median,
    lower: row.meta.lower,
    upper: row.meta.upper,
    limits: limitsKindOf(row.meta.method),
    number_used: row.meta.numberUsed,
    updated_at: row.meta.updatedAt.toISOString(),
    estimate_id: ref?.estimateId ?? null,
    version: ref?.version ?? null,
    permalink: `/analytes/${row.meta.analyteId}?${new URLSearchParams({ matrix, type: row.meta.varType === ':cvi' ? 'CVI' : 'CVG' }).toString()}`,
    as_shown: `/api/v1/measurands/${row.meta.analyteId}/metas?as_of=${encodeURIComponent(generatedAt)}`,
  };
}

/** A population's estimate as a menu line carries it to the thread (plain numbers). */
export interface PopulationEstimate {
  median: number;
  lower: number | null;
  upper: number | null;
  method: string;
  numberUsed: number;
}

export interface LinePopulation {
  key: string;
  analyteId: number;
  cvi: PopulationEstimate | null;
  cvg: PopulationEstimate | null;
  studies: number;
  sentence: string;
}

export interface JudgedLine {
  line: MenuLine;
  match: MenuMatch;
  cvi: MetaRow | null;
  cvg: MetaRow | null;
  result: DomainResult | null;
  population?: LinePopulation;
}

/** A population's estimate a test used (issue 47.3): recomputed, no stored estimate nor version behind it. */
function populationEstimateOf(
  e: PopulationEstimate | null,
  p: LinePopulation,
  type: 'CVI' | 'CVG',
  matrix: string,
) {
  if (!e) return null;
  return {
    id: null,
    median: e.median,
    lower: e.lower,
    upper: e.upper,
    limits: limitsKindOf(e.method),
    number_used: e.numberUsed,
    updated_at: null,
    estimate_id: null,
    version: null,
    permalink: `/analytes/${p.analyteId}?${new URLSearchParams({ matrix, type }).toString()}`,
    as_shown: `/api/v1/measurands/${p.analyteId}/metas?${populationQuery(p.key)}`,
  };
}

/** `sex=males&state=athletes` as the query of `/metas` (`facet.sex=males&facet.state=athletes`). */
const populationQuery = (key: string) =>
  key
    .split('&')
    .map((part) => `facet.${part}`)
    .join('&');

export function presentMenuTest(j: JudgedLine, refs: EstimateRefs, generatedAt: string): MenuTestResult {
  const r = j.result;
  return {
    line: j.line.line,
    input: j.line.input,
    status: j.match.status,
    why: j.match.why,
    match: j.match.match ? candidate(j.match.match) : null,
    candidates: j.match.candidates.map(candidate),
    candidates_total: j.match.candidatesTotal,
    lab: {
      cva: r?.lab.imprecision ?? j.line.input.cva ?? null,
      bias: r?.lab.bias ?? (j.line.input.bias === undefined ? null : Math.abs(j.line.input.bias)),
      te: r?.lab.totalError ?? null,
      te_source: r?.lab.teSource ?? null,
      expanded_uncertainty: r?.lab.mau ?? null,
    },
    aps_met: r ? measures(r.apsMet, same) : null,
    aps_met_over_limits: r ? measures(r.apsMetOverLimits, same) : null,
    specs: r ? levels(r.specs, (l) => measures(l, value)) : null,
    sigma: r?.sigma ? levels(r.sigma, (s) => s.value) : null,
    sigma_ranges: r?.sigma ? levels(r.sigma, (s) => s.range) : null,
    rcv: r?.rcv ? { up: r.rcv.up.value!, down: r.rcv.down.value! } : null,
    rcv_ranges: r?.rcv ? { up: r.rcv.up.range, down: r.rcv.down.range } : null,
    ii: r?.ii.value ?? null,
    ii_range: r?.ii.range ?? null,
    ii_with_cva: r?.iiWithCva.value ?? null,
    ii_with_cva_range: r?.iiWithCva.range ?? null,
    prri_useful: r?.prriUseful ?? null,
    ...(j.population
      ? {
          estimate: populationEstimateOf(j.population.cvi, j.population, 'CVI', j.match.match?.matrix ?? ''),
          estimate_cvg: populationEstimateOf(
            j.population.cvg,
            j.population,
            'CVG',
            j.match.match?.matrix ?? '',
          ),
          population: {
            key: j.population.key,
            studies: j.population.studies,
            note: j.population.cvi || j.population.cvg ? null : NO_POPULATION_ESTIMATE_NOTE,
            sentence: j.population.sentence,
          },
        }
      : {
          estimate: estimateOf(j.cvi, j.match.match?.matrix ?? '', refs, generatedAt),
          estimate_cvg: estimateOf(j.cvg, j.match.match?.matrix ?? '', refs, generatedAt),
        }),
  };
}

/** As the specifications table says it (modules/meta-analysis' NO_POPULATION_ESTIMATE; written here for the thread). */
const NO_POPULATION_ESTIMATE_NOTE = 'No estimate for this population';

export function presentMenu(
  judged: JudgedLine[],
  refs: EstimateRefs,
  parameters: { level: MenuResponse['parameters']['level']; probability: number; z: number },
  generatedAt: Date,
  population?: MenuResponse['population'],
): MenuResponse {
  const at = generatedAt.toISOString();
  const count = (s: JudgedLine['match']['status']) => judged.filter((j) => j.match.status === s).length;
  return {
    parameters: { ...parameters, generated_at: at },
    summary: {
      tests: judged.length,
      matched: count('matched'),
      unmatched: count('unmatched'),
      ambiguous: count('ambiguous'),
    },
    sources: { ...MENU_SOURCES },
    tests: judged.map((j) => presentMenuTest(j, refs, at)),
    ...(population ? { population } : {}),
  };
}
