import { metaAnalyse, type MetaInputRow } from '@bvdb/domain';
import type { DbOrTx } from '../../../db/client.js';
import { findAnalyte, findAnalytesByIds } from '../../analytes/index.js';
import {
  recordVersions,
  type EstimateSnapshot,
  type RecomputedEstimate,
  type VersionCause,
} from '../../estimates/index.js';
import { findMatricesByIds, listConsolidationMembers } from '../../lookups/index.js';
import { metaEligibility, type Spec, type VarType } from './meta-eligibility.js';
import * as repo from './meta-calculation.repository.js';

export type { Spec, VarType };

export interface MetaGroup {
  matrixId: number | null;
  consolidationId: number | null;
  label: string;
  specs: Spec[];
}

const TYPE_LABEL: Record<VarType, string> = { ':cvi': 'CVI', ':cvg': 'CVG' };

type ConsolidationMap = Map<number, { name: string; matrixIds: Set<number> }>;

async function loadConsolidations(tx: DbOrTx): Promise<ConsolidationMap> {
  const consolidations: ConsolidationMap = new Map();
  for (const m of await listConsolidationMembers(tx)) {
    const c = consolidations.get(m.id) ?? { name: m.name, matrixIds: new Set<number>() };
    c.matrixIds.add(m.matrixId);
    consolidations.set(m.id, c);
  }
  return consolidations;
}

/** The groups of one measurand's datasets: each matrix, each consolidation pooling several matrices. */
function groupsOf(
  specs: Spec[],
  matrixLabel: Map<number, string>,
  consolidations: ConsolidationMap,
  scope: repo.RecomputeScope,
): MetaGroup[] {
  const matrixIds = [...new Set(specs.map((s) => s.matrixId))].sort((a, b) => a - b);
  const groups: MetaGroup[] = (scope === 'consolidations' ? [] : matrixIds).map((id) => ({
    matrixId: id,
    consolidationId: null,
    label: matrixLabel.get(id) ?? String(id),
    specs: specs.filter((s) => s.matrixId === id),
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

/** The groups one measurand's meta-analyses are computed over: each matrix, each consolidation. */
export async function loadMetaGroups(tx: DbOrTx, analyteId: number, scope: repo.RecomputeScope = 'all') {
  const analyte = await findAnalyte(tx, analyteId);
  if (!analyte) return null;
  const specs = await repo.listSpecsOfAnalyte(tx, analyteId);
  return { analyte, groups: await groupDatasets(tx, specs, scope) };
}

/** A measurand's datasets as the recomputation reads them, in id order. */
export const listDatasetsOfAnalyte = (tx: DbOrTx, analyteId: number): Promise<Spec[]> =>
  repo.listSpecsOfAnalyte(tx, analyteId);

/**
 * The groups the given datasets (of one measurand) are computed over, exactly as the recomputation
 * forms them: each matrix, each consolidation pooling more than one of their matrices. A facet
 * recompute (issue 47) passes the matching datasets only.
 */
export async function groupDatasets(
  tx: DbOrTx,
  specs: Spec[],
  scope: repo.RecomputeScope = 'all',
): Promise<MetaGroup[]> {
  if (specs.length === 0) return [];
  const matrixRows = await findMatricesByIds(tx, [...new Set(specs.map((s) => s.matrixId))]);
  const labels = new Map(matrixRows.map((m) => [m.id, m.matrixExpansion]));
  return groupsOf(specs, labels, await loadConsolidations(tx), scope);
}

/** A result's name as stored: "ALT - Serum - CVI". */
export const metaNameOf = (analyteName: string, groupLabel: string, type: VarType) =>
  `${analyteName} - ${groupLabel} - ${TYPE_LABEL[type]}`;

/** Whether and how a specification enters each of its two meta-analyses (decision 003), as the curators' validation shows it. */
export function specEligibility(spec: Spec) {
  return { cvi: metaEligibility(spec, ':cvi'), cvg: metaEligibility(spec, ':cvg') };
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
export function recomputeAnalyteMetas(
  tx: DbOrTx,
  analyteId: number,
  now = new Date(),
  scope: repo.RecomputeScope = 'all',
): Promise<RecomputeOutcome> {
  return recomputeAnalytesMetas(tx, [analyteId], now, scope);
}

/** What a recompute did: results computed, results changed, estimate versions written. */
export interface RecomputeOutcome {
  written: number;
  changed: number;
  versions: number;
}

/** A version written outside the door (the seed, a bench): the estimates' first values. */
const INITIAL_CAUSE: VersionCause = { kind: 'initial', role: 'system' };

/** The result of a group as an estimate version sees it (decision 052). */
function snapshotOf(
  metaId: number | null,
  values: MetaValues,
  links: LinkValues[],
  referenceOf: Map<number, number>,
): EstimateSnapshot {
  return {
    metaId,
    name: values.name,
    median: values.median,
    lower: values.lower,
    upper: values.upper,
    method: values.method,
    seed: values.seed,
    numberUsed: values.numberUsed,
    referenceIds: values.referenceIds,
    datasets: links
      .map((l) => ({
        id: l.bvSpecificationId,
        reference_id: referenceOf.get(l.bvSpecificationId) ?? null,
        study_id: l.studyId,
        grade: l.grade,
        value: l.cv,
        ci_lower: l.ciLower,
        ci_upper: l.ciUpper,
        weight: l.weight,
      }))
      .sort((a, b) => a.id - b.id),
  };
}

/**
 * `recomputeAnalyteMetas` for many measurands at once, with the same outcome row for row: their
 * datasets, matrices and stored results are read in a few queries, and the new results written in a
 * few more (one insert of every new result and one of every dataset link), rather than a dozen
 * round trips per measurand. A whole-database recompute walks the measurands in chunks of this.
 */
export async function recomputeAnalytesMetas(
  tx: DbOrTx,
  analyteIds: number[],
  now = new Date(),
  scope: repo.RecomputeScope = 'all',
  causeOf: (analyteId: number) => VersionCause = () => INITIAL_CAUSE,
): Promise<RecomputeOutcome> {
  const ids = [...new Set(analyteIds)];
  if (ids.length === 0) return { written: 0, changed: 0, versions: 0 };
  // One after another: a transaction is one connection, and queries sent on it before the last
  // answered only queue in the driver (pg warns of it and drops it in pg@9); nothing is gained.
  const analyteRows = await findAnalytesByIds(tx, ids);
  const specs = await repo.listSpecsOfAnalytes(tx, ids);
  const consolidations = await loadConsolidations(tx);
  const storedRows = await repo.listMetasOfAnalytes(tx, ids, scope);
  const matrixRows = await findMatricesByIds(tx, [...new Set(specs.map((s) => s.matrixId))]);
  const labels = new Map(matrixRows.map((m) => [m.id, m.matrixExpansion]));
  const specsOf = new Map<number, Spec[]>();
  const referenceOf = new Map(specs.map((spec) => [spec.id, spec.referenceId]));
  for (const spec of specs) {
    const list = specsOf.get(spec.analyteId) ?? [];
    list.push(spec);
    specsOf.set(spec.analyteId, list);
  }
  const stored = new Map(
    storedRows.map((s) => [
      `${s.meta.analyteId}|${groupKey(s.meta.matrixId, s.meta.matrixConsolidationId, s.meta.varType)}`,
      s,
    ]),
  );

  let written = 0;
  let changed = 0;
  const unchanged: number[] = [];
  const updates: { id: number; values: MetaValues; links: LinkValues[] }[] = [];
  const inserts: { values: repo.NewMetaRow; links: LinkValues[] }[] = [];
  const recomputed: RecomputedEstimate[] = [];
  for (const analyte of analyteRows) {
    const groups = groupsOf(specsOf.get(analyte.id) ?? [], labels, consolidations, scope);
    for (const group of groups) {
      for (const type of [':cvi', ':cvg'] as const) {
        const rows = metaInputRows(group.specs, type);
        const result = metaAnalyse(rows);
        if (result.n === 0) continue;
        const values: MetaValues = {
          name: metaNameOf(analyte.displayName, group.label, type),
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
        const key = `${analyte.id}|${groupKey(group.matrixId, group.consolidationId, type)}`;
        const before = stored.get(key);
        stored.delete(key);
        if (before && sameAsStored(before, values, links)) {
          unchanged.push(before.meta.id);
          // Still compared with its latest version (issue 43.14): a previous release during a
          // rolling upgrade writes results but no version, so a stored result equal to the new one
          // may be shown without ever having been versioned. recordVersions writes none when the
          // latest version already says the same.
          recomputed.push({
            analyteId: analyte.id,
            matrixId: group.matrixId,
            matrixConsolidationId: group.consolidationId,
            varType: type,
            snapshot: snapshotOf(before.meta.id, values, links, referenceOf),
          });
          continue;
        }
        changed++;
        recomputed.push({
          analyteId: analyte.id,
          matrixId: group.matrixId,
          matrixConsolidationId: group.consolidationId,
          varType: type,
          // A new result's id is known after its insert (filled in below).
          snapshot: snapshotOf(before?.meta.id ?? null, values, links, referenceOf),
        });
        if (before) updates.push({ id: before.meta.id, values, links });
        else {
          inserts.push({
            values: {
              ...values,
              analyteId: analyte.id,
              matrixId: group.matrixId,
              matrixConsolidationId: group.consolidationId,
              varType: type,
              computedAt: now,
              createdAt: now,
              updatedAt: now,
            },
            links,
          });
        }
      }
    }
  }
  for (const u of updates) await repo.updateMeta(tx, u.id, { ...u.values, computedAt: now, updatedAt: now });
  const newIds = await repo.insertMetas(
    tx,
    inserts.map((i) => i.values),
  );
  const newIdOf = new Map(
    inserts.map((i, k) => [
      `${i.values.analyteId}|${groupKey(i.values.matrixId ?? null, i.values.matrixConsolidationId ?? null, i.values.varType)}`,
      newIds[k]!,
    ]),
  );
  for (const r of recomputed) {
    if (r.snapshot && r.snapshot.metaId === null) {
      r.snapshot.metaId =
        newIdOf.get(`${r.analyteId}|${groupKey(r.matrixId, r.matrixConsolidationId, r.varType)}`) ?? null;
    }
  }
  await repo.replaceMetaDatasetsOf(tx, [
    ...updates.map((u) => ({ metaId: u.id, links: u.links })),
    ...inserts.map((i, k) => ({ metaId: newIds[k]!, links: i.links })),
  ]);
  await repo.touchComputedAt(tx, unchanged, now);
  // What is left stored has no group any more (its datasets were removed or excluded).
  await repo.deleteMetas(
    tx,
    [...stored.values()].map((s) => s.meta.id),
  );
  changed += stored.size;
  for (const s of stored.values()) {
    recomputed.push({
      analyteId: s.meta.analyteId,
      matrixId: s.meta.matrixId,
      matrixConsolidationId: s.meta.matrixConsolidationId,
      varType: s.meta.varType,
      snapshot: null,
    });
  }
  const versions = await recordVersions(tx, recomputed, causeOf, now);
  return { written, changed, versions };
}

/** The measurands with a dataset the curators included. */
export const listAnalyteIdsWithDatasets = (db: DbOrTx) => repo.listAnalyteIdsWithDatasets(db);

/** The measurands a full recomputation walks: those with an included dataset or a stored result. */
export const listAnalyteIdsToRecompute = (db: DbOrTx) => repo.listAnalyteIdsToRecompute(db);
