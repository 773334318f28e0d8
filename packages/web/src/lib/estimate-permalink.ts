import type { MetaRecord } from '@bvdb/contract';
import type { EstimateType } from '@bvdb/domain';
import { paths } from './paths';

/**
 * Permalinks to a measurand's estimate keyed on what a reader means — measurand, matrix and type —
 * never on a result's id, which a recomputation may replace (docs/decisions/027):
 * `/analytes/{measurand id}?matrix={matrix name}&type=CVI|CVG`.
 */
export function estimatePermalinkPath(
  analyteId: number,
  matrix: string,
  type: EstimateType,
  release?: string | null,
): string {
  const query = new URLSearchParams({ matrix, type });
  // Pinned to a dated release (issue 30.3): the page shows that release's value.
  if (release) query.set('release', release);
  return `${paths.analyte(analyteId)}?${query.toString()}`;
}

export const typeOfMeta = (m: Pick<MetaRecord, 'var_type'>): EstimateType =>
  m.var_type === ':cvi' ? 'CVI' : 'CVG';

/** The estimate a permalink names, read from the page's query (matrix names compare case-insensitively). */
export interface EstimateTarget {
  matrix: string;
  type: EstimateType;
}

export function estimateTargetOf(params: URLSearchParams): EstimateTarget | null {
  const matrix = params.get('matrix')?.trim();
  const type = params.get('type')?.trim().toUpperCase();
  if (!matrix || (type !== 'CVI' && type !== 'CVG')) return null;
  return { matrix, type };
}

const same = (a: string, b: string) => a.localeCompare(b, undefined, { sensitivity: 'base' }) === 0;

export function isEstimateTarget(target: EstimateTarget | null, matrix: string, type: EstimateType): boolean {
  return target !== null && target.type === type && same(target.matrix, matrix);
}

/** The result a permalink names among a measurand's results (the last one, as the summary shows it). */
export function findEstimate(metas: readonly MetaRecord[], target: EstimateTarget): MetaRecord | undefined {
  return metas.findLast((m) => isEstimateTarget(target, m.matrix, typeOfMeta(m)));
}

/** The row's HTML id: a fragment link (#estimate-serum-cvi) works too, without script. */
export function estimateAnchorId(matrix: string, type: EstimateType): string {
  const slug = matrix
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  return `estimate-${slug || 'matrix'}-${type.toLowerCase()}`;
}
