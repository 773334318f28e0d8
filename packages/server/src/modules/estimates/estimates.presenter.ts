import type { EstimateVersion } from '@bvdb/contract';
import { limitsKindOf } from '@bvdb/domain';
import type { EstimateRow, VersionRow } from './estimates.repository.js';

const LIMITS = { '95 % CI': 'ci', range: 'range' } as const;

/** One version in the public history: values, the datasets by id with their CV, and the cause by role. */
export function presentVersion(v: VersionRow): EstimateVersion {
  const kind = limitsKindOf(v.method);
  return {
    version: v.version,
    withdrawn: v.withdrawn,
    median: v.median,
    lower: v.lower,
    upper: v.upper,
    limits: kind === null ? null : LIMITS[kind],
    number_used: v.numberUsed,
    datasets: v.datasets.map((d) => ({ id: d.id, value: d.value })),
    computed_at: v.computedAt.toISOString(),
    cause: {
      kind: v.causeKind as EstimateVersion['cause']['kind'],
      ...(v.causeDatasetId === null ? {} : { dataset_id: v.causeDatasetId }),
      role: v.causeRole,
    },
  };
}

export const presentEstimateIdentity = (e: EstimateRow) => ({
  id: e.id,
  measurand_id: e.analyteId,
  matrix_id: e.matrixId,
  matrix_consolidation_id: e.matrixConsolidationId,
  var_type: e.varType as ':cvi' | ':cvg',
});
