import type { FacetAnswerSchema } from '@bvdb/contract';
import {
  estimateEvidenceOf,
  facetQueryString,
  facetSelectionKey,
  limitsKindOf,
  type FacetSelection,
} from '@bvdb/domain';
import type { z } from 'zod';
import type { FacetedEstimates, FacetResult } from './meta-facets.types.js';

type FacetAnswer = z.infer<typeof FacetAnswerSchema>;

export const ONE_STUDY_NOTE = 'One study: its own estimate and CI';
export const NO_STUDY_NOTE = 'No study matches these facets';

function presentEstimate(r: FacetResult): FacetAnswer['metas'][number] {
  return {
    name: r.name,
    var_type: r.varType,
    matrix: r.matrix,
    matrix_id: r.matrixId,
    matrix_consolidation_id: r.consolidationId,
    median: r.result.weightedMedian,
    lower: r.result.rangeLower,
    upper: r.result.rangeUpper,
    limits: limitsKindOf(r.result.method),
    method: r.result.method,
    seed: r.result.seed,
    number_used: r.result.n,
    // What kind of evidence (decision 099): a range for too few studies, else its studies' class.
    evidence: estimateEvidenceOf(
      limitsKindOf(r.result.method),
      r.links.map((l) => l.evidenceClass),
    ),
    note: r.result.n === 1 ? ONE_STUDY_NOTE : null,
    datasets: r.links.map((l) => ({
      bv_specification_id: l.bvSpecificationId,
      reference_id: l.referenceId,
      study_id: l.studyId,
      grade: l.grade,
      cv: l.cv,
      ci_lower: l.ciLower,
      ci_upper: l.ciUpper,
      weight: l.weight,
    })),
  };
}

/**
 * The measurand page showing this facet set (decision 097): `/analytes/{id}?facet.sex=males&…`, the
 * facets in their canonical order with their values sorted, and `as_of` when the answer is of a
 * past moment.
 */
export function facetPermalink(analyteId: number, selection: FacetSelection, asOf: Date | null): string {
  const parts = [facetQueryString(selection)];
  if (asOf) parts.push(`as_of=${encodeURIComponent(asOf.toISOString())}`);
  const query = parts.filter(Boolean).join('&');
  return `/analytes/${analyteId}${query ? `?${query}` : ''}`;
}

/** A facet set's answer: its estimates (one study labelled, none said), and the subgroup tests. */
export function presentFacetAnswer(f: FacetedEstimates, asOf: Date | null = null): FacetAnswer {
  return {
    selection: Object.fromEntries(Object.entries(f.selection).map(([k, v]) => [k, [...v]])),
    key: facetSelectionKey(f.selection),
    permalink: facetPermalink(f.analyte.id, f.selection, asOf),
    datasets: f.datasets,
    note: f.results.length === 0 ? NO_STUDY_NOTE : null,
    metas: f.results.map(presentEstimate),
    comparisons: f.comparisons.map((c) => ({
      facet: c.facet,
      var_type: c.a.result.varType,
      matrix: c.a.result.matrix,
      a: {
        value: c.a.value,
        label: c.a.label,
        median: c.a.result.result.weightedMedian!,
        number_used: c.a.result.result.n,
      },
      b: {
        value: c.b.value,
        label: c.b.label,
        median: c.b.result.result.weightedMedian!,
        number_used: c.b.result.result.n,
      },
      method: 'Mixed-effects subgroup test on ln CV (REML τ²; metafor QM; Borenstein et al. 2009, ch. 19)',
      q: c.test.qm,
      df: c.test.df,
      p: c.test.p,
      tau2: c.test.tau2,
      sentence: c.sentence,
    })),
  };
}
