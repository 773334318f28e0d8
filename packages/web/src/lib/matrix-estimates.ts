import type { MetaRecord } from '@bvdb/contract';
import { headlineMatrixOf, type WorkbenchEstimate } from '@bvdb/domain';

/** One matrix (or consolidation) of a measurand with its meta-analysis medians. */
export interface MatrixEstimate {
  /** "m{matrix id}" or "c{consolidation id}": a matrix and a consolidation may share a number. */
  key: string;
  matrix: string;
  /** Weighted median CVI, or null when the matrix has no usable CVI estimate. */
  cvi: number | null;
  /** Weighted median CVG, or null when the matrix has no usable CVG estimate. */
  cvg: number | null;
  /** The estimates with their limits and what the limits are (for the ranges of issue 32.5). */
  cviEstimate: WorkbenchEstimate | null;
  cvgEstimate: WorkbenchEstimate | null;
}

const keyOf = (m: Pick<MetaRecord, 'matrix_id' | 'matrix_consolidation_id' | 'matrix'>) =>
  m.matrix_consolidation_id !== null
    ? `c${m.matrix_consolidation_id}`
    : m.matrix_id !== null
      ? `m${m.matrix_id}`
      : `n${m.matrix}`;

/** A median of 0 is shown as "NA" (spec section 2): it is no estimate either. */
const estimate = (median: number | null | undefined) =>
  median === null || median === undefined || median === 0 ? null : median;

/**
 * The matrices of a measurand in the order of its meta records, each with its CVI and CVG medians
 * (the last record of a type wins, as in the meta-analysis summary), and the key of the headline
 * matrix by the one rule of decision 007 (`headlineMatrixOf`, the same choice as
 * `headlineMetasOf`), or null without any estimate.
 */
export function matrixEstimatesOf(metas: readonly MetaRecord[]): {
  matrices: MatrixEstimate[];
  headlineKey: string | null;
} {
  const byKey = new Map<string, MatrixEstimate>();
  for (const m of metas) {
    const key = keyOf(m);
    const e = byKey.get(key) ?? {
      key,
      matrix: m.matrix,
      cvi: null,
      cvg: null,
      cviEstimate: null,
      cvgEstimate: null,
    };
    const median = estimate(m.median);
    const withLimits = median === null ? null : { median, lower: m.lower, upper: m.upper, limits: m.limits };
    if (m.var_type === ':cvi') {
      e.cvi = median;
      e.cviEstimate = withLimits;
    } else {
      e.cvg = median;
      e.cvgEstimate = withLimits;
    }
    byKey.set(key, e);
  }
  const headline = headlineMatrixOf(
    metas
      .filter((m) => m.matrix_consolidation_id !== null || m.matrix_id !== null)
      .map((m) => ({
        matrixKey: m.matrix_consolidation_id ?? m.matrix_id ?? 0,
        consolidated: m.matrix_consolidation_id !== null,
        varType: m.var_type,
        median: m.median,
        numberUsed: m.number_used,
      })),
  );
  const headlineKey = headline ? `${headline.consolidated ? 'c' : 'm'}${headline.matrixKey}` : null;
  return { matrices: [...byKey.values()], headlineKey };
}
