import type {
  HeadlineMetaSchema,
  LegacyMetaRecordSchema,
  MeasurandEstimateSchema,
  MetaListItemSchema,
  MetaRecord,
  V1HeadlineSchema,
  VarType,
} from '@bvdb/contract';
import { limitsKindOf } from '@bvdb/domain';
import type { z } from 'zod';
import type { MetaRow, listDatasetsOfMetas } from './meta-results.repository.js';

/** The headline matrix of a measurand and its two results (either may be missing). */
export interface Headline {
  matrixId: number | null;
  consolidationId: number | null;
  cvi: MetaRow | undefined;
  cvg: MetaRow | undefined;
}

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
    limits: limitsKindOf(r.meta.method),
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
    limits: limitsKindOf(m.method),
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

/** The matrix of a result as the live API sends it: an object; a consolidation has no matrix id. */
export const presentLegacyMatrix = (row: MetaRow) => ({
  id: row.meta.matrixId,
  matrix_expansion: matrixLabel(row),
});

/** A complete headline result in `/api/meta_calculations` (callers pass complete rows only). */
export function presentHeadlineMeta(row: MetaRow): z.infer<typeof HeadlineMetaSchema> {
  const m = row.meta;
  return {
    id: m.id,
    name: m.name,
    var_type: m.varType as VarType,
    median: m.median ?? 0,
    lower: m.lower ?? 0,
    upper: m.upper ?? 0,
    limits: limitsKindOf(m.method),
    number_used: m.numberUsed,
    matrix: presentLegacyMatrix(row),
    matrix_id: m.matrixId,
    matrix_consolidation_id: m.matrixConsolidationId,
    updated_at: m.updatedAt.toISOString(),
  };
}

/** The headline's results in `/api/meta_calculations`: CVI then CVG, those present. */
export const presentHeadlineMetas = (h: Headline | null) =>
  h ? [h.cvi, h.cvg].filter((r): r is MetaRow => r !== undefined).map(presentHeadlineMeta) : [];

/** One stored result in `meta_by_analyte`: the read shape with the live API's matrix object. */
export const presentLegacyMeta = (
  row: MetaRow,
  links: DatasetLink[],
): z.infer<typeof LegacyMetaRecordSchema> => ({
  ...presentMeta(row, links),
  matrix: presentLegacyMatrix(row),
});

function presentEstimate(row: MetaRow | undefined): z.infer<typeof MeasurandEstimateSchema> | null {
  if (!row) return null;
  const m = row.meta;
  return {
    id: m.id,
    median: m.median ?? 0,
    lower: m.lower ?? 0,
    upper: m.upper ?? 0,
    limits: limitsKindOf(m.method),
    number_used: m.numberUsed,
    updated_at: m.updatedAt.toISOString(),
  };
}

/** The headline of `/api/measurands`: the matrix object, then CVI and CVG (null when missing). */
export function presentMeasurandMetas(h: Headline | null) {
  const row = h && (h.cvi ?? h.cvg);
  if (!h || !row) return [];
  return [{ matrix: presentLegacyMatrix(row), cvi: presentEstimate(h.cvi), cvg: presentEstimate(h.cvg) }];
}

/** A result's stable estimate id and version (decision 052); nulls for a result without a history. */
export type EstimateRefOf = (row: MetaRow) => { estimate_id: number | null; version: number | null };
const noRef: EstimateRefOf = () => ({ estimate_id: null, version: null });

/** The headline in the v1 API. */
export function presentV1Headline(
  h: Headline | null,
  refOf: EstimateRefOf = noRef,
): z.infer<typeof V1HeadlineSchema> | null {
  const row = h && (h.cvi ?? h.cvg);
  if (!h || !row) return null;
  const estimate = (r: MetaRow | undefined) => {
    const e = presentEstimate(r);
    if (!e || !r) return null;
    const { id, ...rest } = e;
    return { meta_id: id, ...rest, ...refOf(r) };
  };
  return {
    matrix_id: h.matrixId,
    matrix_consolidation_id: h.consolidationId,
    matrix: matrixLabel(row),
    cvi: estimate(h.cvi),
    cvg: estimate(h.cvg),
  };
}
