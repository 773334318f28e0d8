import type { MetaRecord } from '@bvdb/contract';
import { headlineMatrixOf } from '@bvdb/domain';

/**
 * The CVI and CVG results of a measurand's headline matrix (headlineMatrixOf, docs/decisions/007):
 * the estimates its calculators and modals start from.
 */
export function headlineMetasOf(metas: readonly MetaRecord[]): { within?: MetaRecord; between?: MetaRecord } {
  const keyOf = (m: MetaRecord) => ({
    matrixKey: m.matrix_consolidation_id ?? m.matrix_id ?? 0,
    consolidated: m.matrix_consolidation_id !== null,
  });
  const top = headlineMatrixOf(
    metas.map((m) => ({ ...keyOf(m), varType: m.var_type, median: m.median, numberUsed: m.number_used })),
  );
  if (!top) return {};
  const inTop = metas.filter((m) => {
    const k = keyOf(m);
    return k.matrixKey === top.matrixKey && k.consolidated === top.consolidated;
  });
  return {
    within: inTop.findLast((m) => m.var_type === ':cvi'),
    between: inTop.findLast((m) => m.var_type === ':cvg'),
  };
}
