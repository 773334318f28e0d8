import {
  datasetFacets,
  facetCounts,
  FACETS,
  facetSlug,
  FIXED_FACET_VALUES,
  filterByFacets,
  invalidFacetChoice,
  metaAnalyse,
  normaliseFacetSelection,
  subgroupSentence,
  subgroupTest,
  type DatasetFacets,
  type Facet,
  type FacetCounts,
  type FacetSelection,
  type MetaInputRow,
  type OverallGrade,
} from '@bvdb/domain';
import type { DbOrTx } from '../../../db/client.js';
import { AppError, notFound } from '../../../lib/app-error.js';
import { findAnalyte } from '../../analytes/index.js';
import { diseaseNamesOfDatasets, facetLookupLabels } from '../../lookups/index.js';
import {
  groupDatasets,
  listDatasetsOfAnalyte,
  metaInputRows,
  metaNameOf,
  type Spec,
  type VarType,
} from '../calculation/meta-calculation.service.js';
import type { FacetComparison, FacetedEstimates, FacetResult } from './meta-facets.types.js';

/**
 * Population facets (issue 47, decision 096): a measurand's datasets with their facet values, the
 * counts, and the estimates recomputed on the datasets a facet set selects — with the engine, the
 * eligibility and the grouping of the stored results, computed on read and never written.
 */

interface FacetedSpec {
  spec: Spec;
  facets: DatasetFacets;
}

/** The lookups' labels the facets read; read once for many measurands by a caller that keeps them. */
export type FacetLabels = Awaited<ReturnType<typeof facetLookupLabels>>;

async function loadFaceted(db: DbOrTx, analyteId: number, known?: Promise<FacetLabels>) {
  const analyte = await findAnalyte(db, analyteId);
  if (!analyte) throw notFound(`Measurand ${analyteId}`);
  const specs = await listDatasetsOfAnalyte(db, analyteId);
  const labels = await (known ?? facetLookupLabels(db));
  const diseases = await diseaseNamesOfDatasets(
    db,
    specs.map((s) => s.id),
  );
  const label = (map: Map<number, string>, id: number | null) => (id === null ? null : (map.get(id) ?? null));
  const items: FacetedSpec[] = specs.map((spec) => ({
    spec,
    facets: datasetFacets({
      numberOfMales: spec.numberOfMales,
      numberOfFemales: spec.numberOfFemales,
      sexForMetaAnalysis: spec.sexForMetaAnalysis,
      ageMin: spec.ageMin,
      ageMax: spec.ageMax,
      ageMean: spec.ageMean,
      stateOfWellBeing: label(labels.states, spec.stateOfWellBeingId),
      diseases: diseases.get(spec.id) ?? [],
      ethnicity: label(labels.ethnicities, spec.ethnicityId),
      samplesPer: spec.samplesPer,
      intervalUnits: spec.intervalUnits,
      method: label(labels.methods, spec.overallPrincipleMethodId),
      matrix: label(labels.matrices, spec.matrixId),
      evidenceClass: spec.evidenceClass,
    }),
  }));
  // Every value a facet may be asked for: the lookups' whole lists, not only the values present.
  const vocabulary: Partial<Record<Facet, string[]>> = {
    state: [...labels.states.values()].map(facetSlug),
    disease: [...labels.diseases.values()].map(facetSlug),
    ethnicity: [...labels.ethnicities.values()].map(facetSlug),
    method: [...labels.methods.values()].map(facetSlug),
    matrix: [...labels.matrices.values()].map(facetSlug),
  };
  return { analyte, items, vocabulary };
}

/** Each facet's values with how many of the measurand's datasets have each (before any choice). */
export async function facetsOfMeasurand(db: DbOrTx, analyteId: number) {
  const { analyte, items } = await loadFaceted(db, analyteId);
  return { analyte, datasets: items.length, facets: facetCounts(items.map((i) => i.facets)) };
}

/**
 * The values a facet may be asked for: the fixed vocabularies (sex, age, interval), every lookup
 * value, and whatever the datasets have. A value no dataset has answers "no study", not a 400.
 */
function allowedValues(
  counts: FacetCounts[],
  vocabulary: Partial<Record<Facet, string[]>>,
): Partial<Record<Facet, string[]>> {
  const allowed: Partial<Record<Facet, string[]>> = {};
  for (const c of counts) {
    const fixed = (FIXED_FACET_VALUES as Partial<Record<Facet, readonly { value: string }[]>>)[c.facet] ?? [];
    allowed[c.facet] = [
      ...new Set([
        ...fixed.map((v) => v.value),
        ...(vocabulary[c.facet] ?? []),
        ...c.values.map((v) => v.value),
      ]),
    ];
  }
  return allowed;
}

/**
 * The engine on some datasets of one measurand, as the recomputation runs it: every matrix and
 * consolidation, CVI and CVG, a group without an eligible study left out. When the population itself
 * is chosen (the state or disease facet), the rule "a healthy population" is that choice: the
 * dataset's healthy flag is not read; every other rule is. Likewise when the evidence class is
 * chosen (decision 099): the rule "a direct ANOVA study" is that choice.
 */
async function engineOn(
  db: DbOrTx,
  analyteName: string,
  specs: Spec[],
  chosen: { population: boolean; evidence: boolean },
): Promise<FacetResult[]> {
  const classOf = new Map(specs.map((s) => [s.id, s.evidenceClass]));
  const input = specs.map((s) => ({
    ...s,
    ...(chosen.population ? { healthy: true } : {}),
    ...(chosen.evidence ? { evidenceClass: 'direct-anova' as const } : {}),
  }));
  const out: FacetResult[] = [];
  for (const group of await groupDatasets(db, input)) {
    for (const type of [':cvi', ':cvg'] as const) {
      const rows = metaInputRows(group.specs, type);
      const result = metaAnalyse(rows);
      if (result.n === 0) continue;
      const weightOf = new Map(result.studies.map((s) => [s.id, s.normalisedWeight]));
      const referenceOf = new Map(group.specs.map((s) => [s.id, s.referenceId]));
      out.push({
        matrixId: group.matrixId,
        consolidationId: group.consolidationId,
        matrix: group.label,
        varType: type,
        name: metaNameOf(analyteName, group.label, type),
        result,
        links: rows
          .filter((r) => r.include && weightOf.has(String(r.id)))
          .map((r) => ({
            bvSpecificationId: r.specId,
            referenceId: referenceOf.get(r.specId)!,
            studyId: String(r.id),
            grade: r.score,
            cv: r.cv!,
            ciLower: r.ciLower!,
            ciUpper: r.ciUpper!,
            weight: weightOf.get(String(r.id))!,
            evidenceClass: classOf.get(r.specId)!,
          })),
      });
    }
  }
  return out;
}

/** Runs the engine on the datasets a facet set selects. */
type Engine = (specs: Spec[], chosen: { population: boolean; evidence: boolean }) => Promise<FacetResult[]>;

/**
 * An estimate shown at a past moment, as the estimates' history recorded it (decision 052): its
 * group and the datasets it was computed from, with their CV, CI and grade as they were then.
 */
export interface ShownEstimate {
  matrixId: number | null;
  consolidationId: number | null;
  matrix: string;
  varType: VarType;
  name: string;
  datasets: {
    bvSpecificationId: number;
    referenceId: number;
    studyId: string;
    grade: string;
    cv: number;
    ciLower: number;
    ciUpper: number;
  }[];
}

/**
 * The engine as of a moment (decision 097): each estimate shown then, run again on those of its
 * recorded datasets the facets select — their values, CIs and grades as they were then. Only the
 * datasets an estimate used then are known: a study outside every estimate then (not eligible, or
 * not of a healthy population) is not part of a past facet estimate.
 */
function engineAsOf(shown: ShownEstimate[]): Engine {
  return (specs) => {
    const ids = new Set(specs.map((s) => s.id));
    const classOf = new Map(specs.map((s) => [s.id, s.evidenceClass]));
    const out: FacetResult[] = [];
    for (const e of shown) {
      const kept = e.datasets.filter((d) => ids.has(d.bvSpecificationId));
      const rows: MetaInputRow[] = kept.map((d) => ({
        id: d.studyId,
        include: true,
        score: d.grade as OverallGrade,
        cv: d.cv,
        ciLower: d.ciLower,
        ciUpper: d.ciUpper,
      }));
      const result = metaAnalyse(rows);
      if (result.n === 0) continue;
      const weightOf = new Map(result.studies.map((s) => [s.id, s.normalisedWeight]));
      out.push({
        matrixId: e.matrixId,
        consolidationId: e.consolidationId,
        matrix: e.matrix,
        varType: e.varType,
        name: e.name,
        result,
        links: kept
          .filter((d) => weightOf.has(d.studyId))
          .map((d) => ({
            ...d,
            weight: weightOf.get(d.studyId)!,
            evidenceClass: classOf.get(d.bvSpecificationId)!,
          })),
      });
    }
    return Promise.resolve(out);
  };
}

const groupKey = (r: Pick<FacetResult, 'matrixId' | 'consolidationId' | 'varType'>) =>
  `${r.matrixId ?? ''}|${r.consolidationId ?? ''}|${r.varType}`;

/**
 * The estimates of the datasets a facet set selects, and — for every chosen facet with two or more
 * values — the subgroup test between each pair of its values where each has at least two studies
 * in a group (the other chosen facets still applied). An unknown facet value is a 400 naming the
 * allowed ones.
 */
export async function facetedEstimates(
  db: DbOrTx,
  analyteId: number,
  asked: FacetSelection,
  shownAsOf?: ShownEstimate[],
  labels?: Promise<FacetLabels>,
): Promise<FacetedEstimates> {
  const { analyte, items, vocabulary } = await loadFaceted(db, analyteId, labels);
  const counts = facetCounts(items.map((i) => i.facets));
  const problem = invalidFacetChoice(asked, allowedValues(counts, vocabulary));
  if (problem) {
    throw new AppError(
      'bad_request',
      `facet.${problem.facet}: "${problem.value}" is not a value of this facet; allowed: ${problem.allowed.join(', ')}`,
    );
  }
  const selection = normaliseFacetSelection(asked);
  const chosen = {
    population: selection.state !== undefined || selection.disease !== undefined,
    evidence: selection.evidence !== undefined,
  };
  const specsOf = (sel: FacetSelection) => filterByFacets(items, (i) => i.facets, sel).map((i) => i.spec);
  const engine: Engine = shownAsOf
    ? engineAsOf(shownAsOf)
    : (specs, chosen) => engineOn(db, analyte.displayName, specs, chosen);
  let matching = specsOf(selection);
  if (shownAsOf) {
    // As of a moment, the datasets are those its estimates were computed from.
    const recorded = new Set(shownAsOf.flatMap((e) => e.datasets.map((d) => d.bvSpecificationId)));
    matching = matching.filter((s) => recorded.has(s.id));
  }
  const results = await engine(matching, chosen);

  const labelOf = (facet: Facet, value: string) =>
    counts.find((c) => c.facet === facet)?.values.find((v) => v.value === value)?.label ?? value;
  const comparisons: FacetComparison[] = [];
  for (const facet of FACETS) {
    const values = selection[facet];
    if (!values || values.length < 2) continue;
    const byValue = new Map<string, Map<string, FacetResult>>();
    for (const value of values) {
      const sub = await engine(specsOf({ ...selection, [facet]: [value] }), chosen);
      byValue.set(value, new Map(sub.map((r) => [groupKey(r), r])));
    }
    for (let i = 0; i < values.length; i++) {
      for (let j = i + 1; j < values.length; j++) {
        const [va, vb] = [values[i]!, values[j]!];
        for (const [key, ra] of byValue.get(va)!) {
          const rb = byValue.get(vb)!.get(key);
          if (!rb || ra.result.n < 2 || rb.result.n < 2) continue;
          const test = subgroupTest([
            ...ra.result.studies.map((s) => ({
              group: va,
              cv: s.cv,
              ciLower: s.ciLower,
              ciUpper: s.ciUpper,
            })),
            ...rb.result.studies.map((s) => ({
              group: vb,
              cv: s.cv,
              ciLower: s.ciLower,
              ciUpper: s.ciUpper,
            })),
          ]);
          if (!test) continue;
          const [la, lb] = [labelOf(facet, va), labelOf(facet, vb)];
          comparisons.push({
            facet,
            a: { value: va, label: la, result: ra },
            b: { value: vb, label: lb, result: rb },
            test,
            sentence: subgroupSentence({
              measurand: analyte.displayName,
              estimate: ra.varType === ':cvi' ? 'CVI' : 'CVG',
              a: { label: la, cv: ra.result.weightedMedian! },
              b: { label: lb, cv: rb.result.weightedMedian! },
              p: test.p,
            }),
          });
        }
      }
    }
  }
  return { analyte, selection, datasets: matching.length, results, comparisons };
}
