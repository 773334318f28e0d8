import { metaAnalyse, type MetaInputRow } from '@bvdb/domain';
import type { DbOrTx } from '../../../db/client.js';
import { findAnalytes, type findAnalyte } from '../../analytes/analytes.service.js';
import { findMatricesByIds, listConsolidationMembers } from '../../lookups/lookups.service.js';
import { metaEligibility, type Spec, type VarType } from './meta-eligibility.js';
import * as repo from './meta-recompute.repository.js';

interface MetaGroup {
  matrixId: number | null;
  consolidationId: number | null;
  label: string;
  specs: Spec[];
}

const TYPE_LABEL: Record<VarType, string> = { ':cvi': 'CVI', ':cvg': 'CVG' };

type AnalyteRow = NonNullable<Awaited<ReturnType<typeof findAnalyte>>>;
type MatrixRow = Awaited<ReturnType<typeof findMatricesByIds>>[number];
type Consolidations = Map<number, { name: string; matrixIds: Set<number> }>;

/** The groups of one measurand's datasets: each matrix, and each consolidation pooling > 1 matrix. */
function groupsOf(
  specs: Spec[],
  matrixRows: MatrixRow[],
  consolidations: Consolidations,
  scope: repo.RecomputeScope,
): MetaGroup[] {
  if (specs.length === 0) return [];
  const used = new Set(specs.map((s) => s.matrixId));
  const groups: MetaGroup[] = (
    scope === 'consolidations' ? [] : matrixRows.filter((m) => used.has(m.id))
  ).map((m) => ({
    matrixId: m.id,
    consolidationId: null,
    label: m.matrixExpansion,
    specs: specs.filter((s) => s.matrixId === m.id),
  }));
  for (const [id, c] of scope === 'matrices' ? [] : consolidations) {
    const pooled = specs.filter((s) => c.matrixIds.has(s.matrixId));
    // A consolidation adds information only when it pools more than one matrix.
    if (new Set(pooled.map((s) => s.matrixId)).size > 1) {
      groups.push({ matrixId: null, consolidationId: id, label: c.name, specs: pooled });
    }
  }
  return groups;
}

/**
 * Everything the meta-analyses of these measurands are computed from, in a fixed number of queries
 * whatever their count: the measurands, their datasets, the matrices and consolidations, and the
 * results stored now.
 */
async function loadInputs(tx: DbOrTx, analyteIds: number[], scope: repo.RecomputeScope) {
  const analytes = new Map((await findAnalytes(tx, analyteIds)).map((a) => [a.id, a]));
  const specsOf = new Map<number, Spec[]>();
  for (const s of await repo.listSpecsOfAnalytes(tx, [...analytes.keys()])) {
    const list = specsOf.get(s.analyteId);
    if (list) list.push(s);
    else specsOf.set(s.analyteId, [s]);
  }
  const matrixIds = new Set<number>();
  for (const specs of specsOf.values()) for (const s of specs) matrixIds.add(s.matrixId);
  const matrixRows = matrixIds.size > 0 ? await findMatricesByIds(tx, [...matrixIds]) : [];
  const consolidations: Consolidations = new Map();
  if (specsOf.size > 0) {
    for (const m of await listConsolidationMembers(tx)) {
      const c = consolidations.get(m.id) ?? { name: m.name, matrixIds: new Set<number>() };
      c.matrixIds.add(m.matrixId);
      consolidations.set(m.id, c);
    }
  }
  const storedOf = new Map<number, { meta: repo.MetaRow; datasets: repo.MetaDatasetRow[] }[]>();
  for (const s of await repo.listMetasOfAnalytes(tx, [...analytes.keys()], scope)) {
    const list = storedOf.get(s.meta.analyteId);
    if (list) list.push(s);
    else storedOf.set(s.meta.analyteId, [s]);
  }
  return {
    analyteOf: (id: number): AnalyteRow | undefined => analytes.get(id),
    groupsOf: (id: number) => groupsOf(specsOf.get(id) ?? [], matrixRows, consolidations, scope),
    storedOf: (id: number) => storedOf.get(id) ?? [],
  };
}

/** The groups one measurand's meta-analyses are computed over: each matrix, each consolidation. */
export async function loadMetaGroups(tx: DbOrTx, analyteId: number, scope: repo.RecomputeScope = 'all') {
  const inputs = await loadInputs(tx, [analyteId], scope);
  const analyte = inputs.analyteOf(analyteId);
  if (!analyte) return null;
  return { analyte, groups: inputs.groupsOf(analyteId) };
}

/** The statistics service's input rows of one group and type, each with its dataset id. */
export function metaInputRows(specs: Spec[], type: VarType): (MetaInputRow & { specId: number })[] {
  return specs.map((s) => ({ specId: s.id, ...metaEligibility(s, type).row }));
}

type MetaValues = Pick<
  repo.MetaRow,
  'name' | 'median' | 'lower' | 'upper' | 'numberUsed' | 'method' | 'seed' | 'referenceIds'
>;
type LinkValues = Omit<repo.MetaDatasetRow, 'metaCalculationId'>;

const groupKey = (matrixId: number | null, consolidationId: number | null, type: string) =>
  `${matrixId ?? ''}|${consolidationId ?? ''}|${type}`;

/** What a reader of a result sees: its values and the datasets it used with their weights. */
function sameAsStored(
  stored: { meta: repo.MetaRow; datasets: repo.MetaDatasetRow[] },
  values: MetaValues,
  links: LinkValues[],
): boolean {
  const m = stored.meta;
  if (
    m.name !== values.name ||
    m.median !== values.median ||
    m.lower !== values.lower ||
    m.upper !== values.upper ||
    m.numberUsed !== values.numberUsed ||
    m.method !== values.method ||
    m.referenceIds.join(',') !== values.referenceIds.join(',') ||
    stored.datasets.length !== links.length
  ) {
    return false;
  }
  const bySpec = new Map(stored.datasets.map((d) => [d.bvSpecificationId, d]));
  return links.every((l) => {
    const d = bySpec.get(l.bvSpecificationId);
    return (
      d !== undefined &&
      d.studyId === l.studyId &&
      d.grade === l.grade &&
      d.cv === l.cv &&
      d.ciLower === l.ciLower &&
      d.ciUpper === l.ciUpper &&
      d.weight === l.weight
    );
  });
}

/**
 * Brings every meta-analysis result of one measurand (each matrix, each consolidation, CVI and CVG)
 * up to date with its datasets, as an upsert per (matrix | consolidation, type): a result keeps its
 * id; `computed_at` is always the recompute time; `updated_at` moves only when something a reader
 * sees changed (values, method, datasets used or their weights); only results whose group no longer
 * yields one are deleted. Run it inside a transaction: readers see the old or the new set, never half
 * of each, and a retry after a crash produces the same rows.
 */
export const recomputeAnalyteMetas = (
  tx: DbOrTx,
  analyteId: number,
  now = new Date(),
  scope: repo.RecomputeScope = 'all',
): Promise<{ written: number; changed: number }> => recomputeAnalytesMetas(tx, [analyteId], now, scope);

/**
 * `recomputeAnalyteMetas` for several measurands in one transaction (the job queue's chunks): their
 * inputs are read in a fixed number of queries and the results that did not change are stamped in
 * one statement, so a chunk costs a few round trips plus the writes of what changed.
 */
export async function recomputeAnalytesMetas(
  tx: DbOrTx,
  analyteIds: number[],
  now = new Date(),
  scope: repo.RecomputeScope = 'all',
): Promise<{ written: number; changed: number }> {
  const inputs = await loadInputs(tx, analyteIds, scope);
  let written = 0;
  let changed = 0;
  const unchanged: number[] = [];
  const gone: number[] = [];
  for (const analyteId of analyteIds) {
    const analyte = inputs.analyteOf(analyteId);
    if (!analyte) continue;
    const stored = new Map(
      inputs
        .storedOf(analyteId)
        .map((s) => [groupKey(s.meta.matrixId, s.meta.matrixConsolidationId, s.meta.varType), s]),
    );
    for (const group of inputs.groupsOf(analyteId)) {
      for (const type of [':cvi', ':cvg'] as const) {
        const rows = metaInputRows(group.specs, type);
        const result = metaAnalyse(rows);
        if (result.n === 0) continue;
        const values: MetaValues = {
          name: `${analyte.displayName} - ${group.label} - ${TYPE_LABEL[type]}`,
          median: result.weightedMedian,
          lower: result.rangeLower,
          upper: result.rangeUpper,
          numberUsed: result.n,
          method: result.method,
          seed: result.seed,
          referenceIds: result.studies.map((s) => Number(s.id)),
        };
        const weightOf = new Map(result.studies.map((s) => [s.id, s]));
        // Only eligible rows carry include = true (metaEligibility): those, in a study that kept a weight.
        const links: LinkValues[] = rows
          .filter((r) => r.include && weightOf.has(String(r.id)))
          .map((r) => ({
            bvSpecificationId: r.specId,
            studyId: String(r.id),
            grade: r.score,
            cv: r.cv!,
            ciLower: r.ciLower!,
            ciUpper: r.ciUpper!,
            weight: weightOf.get(String(r.id))!.normalisedWeight,
          }));
        written++;
        const key = groupKey(group.matrixId, group.consolidationId, type);
        const before = stored.get(key);
        stored.delete(key);
        if (before && sameAsStored(before, values, links)) {
          unchanged.push(before.meta.id);
          continue;
        }
        changed++;
        let metaId: number;
        if (before) {
          metaId = before.meta.id;
          await repo.updateMeta(tx, metaId, { ...values, computedAt: now, updatedAt: now });
        } else {
          metaId = await repo.insertMeta(tx, {
            ...values,
            analyteId,
            matrixId: group.matrixId,
            matrixConsolidationId: group.consolidationId,
            varType: type,
            computedAt: now,
            createdAt: now,
            updatedAt: now,
          });
        }
        await repo.replaceMetaDatasets(
          tx,
          metaId,
          links.map((l) => ({ ...l, metaCalculationId: metaId })),
        );
      }
    }
    // What is left stored has no group any more (its datasets were removed or excluded).
    for (const s of stored.values()) gone.push(s.meta.id);
    changed += stored.size;
  }
  await repo.touchComputedAt(tx, unchanged, now);
  await repo.deleteMetas(tx, gone);
  return { written, changed };
}

/** The measurands with a dataset the curators included. */
export const listAnalyteIdsWithDatasets = (db: DbOrTx) => repo.listAnalyteIdsWithDatasets(db);

/** The measurands a full recomputation walks: those with an included dataset or a stored result. */
export const listAnalyteIdsToRecompute = (db: DbOrTx) => repo.listAnalyteIdsToRecompute(db);

export { metaEligibility, type MetaEligibility, type VarType } from './meta-eligibility.js';
