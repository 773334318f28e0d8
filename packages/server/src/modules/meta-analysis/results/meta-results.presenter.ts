import type { MetaListItemSchema, MetaRecord, VarType } from '@bvdb/contract';
import type { z } from 'zod';
import type { MetaRow, listDatasetsOfMetas } from './meta-results.repository.js';

type DatasetLink = Awaited<ReturnType<typeof listDatasetsOfMetas>>[number];
type MetaListItem = z.infer<typeof MetaListItemSchema>;

const matrixLabel = (row: Pick<MetaRow, 'matrixName' | 'consolidationName'>) =>
  row.matrixName ?? row.consolidationName ?? 'Unknown';

export function presentMetaListItem(r: MetaRow): MetaListItem {
  return {
    id: r.meta.id,
    name: r.meta.name,
    analyte_id: r.meta.analyteId,
    analyte_display_name: r.analyteName,
    var_type: r.meta.varType as VarType,
    matrix: matrixLabel(r),
    median: r.meta.median,
    lower: r.meta.lower,
    upper: r.meta.upper,
    number_used: r.meta.numberUsed,
    updated_at: r.meta.updatedAt.toISOString(),
  };
}

export function presentMeta(row: MetaRow, links: DatasetLink[]): MetaRecord {
  const m = row.meta;
  return {
    id: m.id,
    name: m.name,
    analyte_id: m.analyteId,
    var_type: m.varType as VarType,
    median: m.median,
    lower: m.lower,
    upper: m.upper,
    number_used: m.numberUsed,
    comments: m.comments,
    display: m.display,
    matrix: matrixLabel(row),
    matrix_id: m.matrixId,
    matrix_consolidation_id: m.matrixConsolidationId,
    method: m.method as MetaRecord['method'],
    seed: m.seed,
    references_array: `[${m.referenceIds.join(', ')}]`,
    datasets: links.map((l) => ({
      bv_specification_id: l.bvSpecificationId,
      reference_id: l.referenceId,
      reference_title: l.referenceTitle,
      study_id: l.studyId,
      grade: l.grade,
      cv: l.cv,
      ci_lower: l.ciLower,
      ci_upper: l.ciUpper,
      weight: l.weight,
    })),
    computed_at: m.computedAt.toISOString(),
    updated_at: m.updatedAt.toISOString(),
  };
}
