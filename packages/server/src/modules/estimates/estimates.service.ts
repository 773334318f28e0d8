import type { DbOrTx } from '../../db/client.js';
import type { EstimateVersionDataset } from '../../db/schema.js';
import { notFound } from '../../lib/app-error.js';
import * as repo from './estimates.repository.js';

/** Why a version was written (decision 048's cause): a role, never a person. */
export interface VersionCause {
  kind: 'dataset' | 'appraisal' | 'import' | 'lookup' | 'initial';
  datasetId?: number | null;
  role: string;
}

/** Which estimate: measurand × matrix or consolidation × CVI/CVG. */
export interface EstimateKey {
  analyteId: number;
  matrixId: number | null;
  matrixConsolidationId: number | null;
  varType: string;
}

/** What a reader sees of an estimate at one moment. */
export interface EstimateSnapshot {
  metaId: number | null;
  name: string;
  median: number | null;
  lower: number | null;
  upper: number | null;
  method: string;
  seed: number | null;
  numberUsed: number;
  referenceIds: number[];
  datasets: EstimateVersionDataset[];
}

/** One estimate a recompute wrote, changed or removed (`snapshot: null`: no longer shown). */
export interface RecomputedEstimate extends EstimateKey {
  snapshot: EstimateSnapshot | null;
}

export const keyOf = (k: EstimateKey) =>
  `${k.analyteId}|${k.matrixId ?? ''}|${k.matrixConsolidationId ?? ''}|${k.varType}`;

const sameNumbers = (a: number[], b: number[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** Whether a stored version shows what `s` shows (the numbers, the method, the datasets and their weights). */
function sameAsVersion(v: repo.VersionRow, s: EstimateSnapshot): boolean {
  if (
    v.withdrawn ||
    v.median !== s.median ||
    v.lower !== s.lower ||
    v.upper !== s.upper ||
    v.method !== s.method ||
    v.numberUsed !== s.numberUsed ||
    !sameNumbers(v.referenceIds, s.referenceIds) ||
    v.datasets.length !== s.datasets.length
  ) {
    return false;
  }
  const byId = new Map(v.datasets.map((d) => [d.id, d]));
  return s.datasets.every((d) => {
    const o = byId.get(d.id);
    return (
      o !== undefined &&
      o.study_id === d.study_id &&
      o.grade === d.grade &&
      o.value === d.value &&
      o.ci_lower === d.ci_lower &&
      o.ci_upper === d.ci_upper &&
      o.weight === d.weight
    );
  });
}

/**
 * Writes a version for each estimate whose reader-visible values differ from its latest version
 * (decision 052), in the recompute's transaction: an estimate seen for the first time gets its
 * stable id and version 1; one no longer shown gets a `withdrawn` version (once); one whose values
 * are what its latest version says gets none. Returns how many versions it wrote.
 */
export async function recordVersions(
  tx: DbOrTx,
  recomputed: RecomputedEstimate[],
  causeOf: (analyteId: number) => VersionCause,
  now: Date,
): Promise<number> {
  if (recomputed.length === 0) return 0;
  const existing = await repo.listEstimatesOfAnalytes(tx, [...new Set(recomputed.map((r) => r.analyteId))]);
  const estimateOf = new Map(existing.map((e) => [keyOf(e), e]));
  const latestOf = new Map(
    (
      await repo.listLatestVersions(
        tx,
        existing.map((e) => e.id),
      )
    ).map((v) => [v.estimateId, v]),
  );
  const fresh = recomputed.filter((r) => r.snapshot !== null && !estimateOf.has(keyOf(r)));
  const created = await repo.insertEstimates(
    tx,
    fresh.map((r) => ({
      analyteId: r.analyteId,
      matrixId: r.matrixId,
      matrixConsolidationId: r.matrixConsolidationId,
      varType: r.varType,
      createdAt: now,
    })),
  );
  for (const e of created) estimateOf.set(keyOf(e), e);

  const versions: repo.NewVersionRow[] = [];
  for (const r of recomputed) {
    const estimate = estimateOf.get(keyOf(r));
    if (!estimate) continue; // Removed before it was ever versioned: nothing to record.
    const latest = latestOf.get(estimate.id);
    const cause = causeOf(r.analyteId);
    const stamp = {
      estimateId: estimate.id,
      version: (latest?.version ?? 0) + 1,
      computedAt: now,
      causeKind: cause.kind,
      causeDatasetId: cause.datasetId ?? null,
      causeRole: cause.role,
    };
    if (r.snapshot === null) {
      if (!latest || latest.withdrawn) continue;
      versions.push({
        ...stamp,
        withdrawn: true,
        metaId: null,
        name: latest.name,
        median: null,
        lower: null,
        upper: null,
        method: 'none',
        seed: null,
        numberUsed: 0,
        referenceIds: [],
        datasets: [],
      });
    } else if (!latest || !sameAsVersion(latest, r.snapshot)) {
      versions.push({ ...stamp, withdrawn: false, ...r.snapshot });
    }
  }
  await repo.insertVersions(tx, versions);
  return versions.length;
}

/** An estimate and one page of its versions, newest first (404 for an unknown estimate). */
export async function getHistory(db: DbOrTx, estimateId: number, limit: number, offset: number) {
  const estimate = await repo.findEstimate(db, estimateId);
  if (!estimate) throw notFound(`Estimate ${estimateId}`);
  const [versions, total] = await Promise.all([
    repo.listVersions(db, estimateId, limit, offset),
    repo.countVersions(db, estimateId),
  ]);
  return { estimate, versions, total };
}

/** Measurands whose current versions are read in one query. */
const ANALYTES_PER_READ = 1000;

/** The current estimate id and version of each estimate of these measurands, by `keyOf`. */
export async function currentVersionsOf(
  db: DbOrTx,
  analyteIds: number[],
): Promise<Map<string, { estimateId: number; version: number }>> {
  const out = new Map<string, { estimateId: number; version: number }>();
  // A step of measurands a query (7,000 at 100× the demo, 20,000 estimates): issue 44.1.
  for (let at = 0; at < analyteIds.length; at += ANALYTES_PER_READ)
    for (const v of await repo.listLatestVersionNumbers(db, analyteIds.slice(at, at + ANALYTES_PER_READ)))
      out.set(keyOf(v), { estimateId: v.estimateId, version: v.version });
  return out;
}

/** The estimates (of one measurand, or all) as shown at `asOf` (withdrawn ones left out), each with its version. */
export async function listShownAsOf(db: DbOrTx, asOf: Date, analyteId?: number) {
  const rows = await repo.listVersionsAsOf(db, asOf, analyteId);
  return rows.filter((r) => !r.version.withdrawn);
}

/** How many versions exist in all. */
export const countAllVersions = (db: DbOrTx) => repo.countAllVersions(db);

/** A version as the public history shows it: the change feed's `from` and `to` (decision 056). */

/** Measurands whose shown results are not yet their latest version (issue 43.14). */
export const listAnalytesWithUnversionedResults = (db: DbOrTx) => repo.listAnalytesWithUnversionedResults(db);
