import type { EvidenceClass, Facet, FacetSelection, MetaResult, SubgroupTestResult } from '@bvdb/domain';
import type { VarType } from '../calculation/meta-calculation.service.js';

/** What the facet service computes and the presenter shows (issue 47). */
export interface FacetResult {
  matrixId: number | null;
  consolidationId: number | null;
  matrix: string;
  varType: VarType;
  name: string;
  result: MetaResult;
  /** The eligible datasets of the studies kept, with their study's normalised weight. */
  links: {
    bvSpecificationId: number;
    referenceId: number;
    studyId: string;
    grade: string;
    cv: number;
    ciLower: number;
    ciUpper: number;
    weight: number;
    /** The dataset's evidence class (decision 099). */
    evidenceClass: EvidenceClass;
  }[];
}

export interface FacetComparison {
  facet: Facet;
  a: { value: string; label: string; result: FacetResult };
  b: { value: string; label: string; result: FacetResult };
  test: SubgroupTestResult;
  sentence: string;
}

export interface FacetedEstimates {
  analyte: { id: number; displayName: string };
  selection: FacetSelection;
  /** Datasets matching the facets. */
  datasets: number;
  results: FacetResult[];
  comparisons: FacetComparison[];
}
