import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Db, DbOrTx } from '../../db/client.js';
import { bumpDataGeneration } from '../../lib/app-state.repository.js';
import {
  RECOMPUTE_CAUSE_KINDS,
  type RecomputeCauseKind,
  type RecomputeRequest,
} from '../../lib/recompute-door.js';
import { listAnalyteIdsToRecompute, recomputeAnalytesMetas } from '../meta-analysis/index.js';
import {
  advanceTrackers,
  failTrackers,
  findJobRecord,
  insertTracker,
  META_JOB_NAMES,
} from '../jobs/index.js';
import * as repo from './recompute-requests.repository.js';

export const META_QUEUE = 'meta-recompute';

export interface DrainOptions {
  /** This worker's name on its claims. */
  worker: string;
  /** Requests claimed at once. */
  batchSize: number;
  /** Measurands recomputed in one transaction (one commit, one cache invalidation). */
  chunkSize: number;
  /** How long a claim lasts without a heartbeat: a killed worker's measurands wait this long. */
  leaseSeconds: number;
  maxAttempts: number;
  retryDelaySeconds: number;
}

/**
 * THE DOOR into the recompute (decision 048): every write that changes what an estimate shows asks
 * here, inside its own transaction, so the request commits with the data change or not at all; the
 * recompute worker drains it. There is no other path (no inline recompute). Returns the tracker
 * record that counts the measurands.
 */
export async function requestRecompute(tx: DbOrTx, request: RecomputeRequest) {
  const { analyteIds, cause } = request;
  const ids = [...new Set(analyteIds ?? (await listAnalyteIdsToRecompute(tx)))];
  const tracker = await insertTracker(tx, {
    name: META_JOB_NAMES.matrices,
    queue: META_QUEUE,
    className: 'MetaCalculationJob',
    payload: { analyteIds: analyteIds ?? null, cause },
    max: ids.length,
  });
  await repo.upsertRequests(tx, ids, tracker.id, {
    kind: cause.kind,
    datasetId: cause.datasetId ?? null,
    role: cause.role,
  });
  return tracker;
}

/** Merges requests without a tracker record or cause (a leftover job of the former queue). */
export const requestUntracked = (tx: DbOrTx, analyteIds: number[]) =>
  repo.upsertRequests(tx, analyteIds, null, null);

/** The requests waiting, with their causes. */
export const listPendingRecomputes = (db: DbOrTx) => repo.listRequests(db);

export const releaseAllClaims = (db: DbOrTx) => repo.releaseAllClaims(db);
export const countPendingRecomputes = (db: DbOrTx) => repo.countRequests(db);

/**
 * A request without a cause (a previous release's process, a leftover job of the former queue) is
 * versioned as `initial` by `system` (decision 052): what it changed came from outside this door.
 */
const UNKNOWN_CAUSE = { kind: 'initial', role: 'system' } as const;

function versionCauseOf(cause: repo.StoredCause | null) {
  if (!cause || !(RECOMPUTE_CAUSE_KINDS as readonly string[]).includes(cause.kind)) return UNKNOWN_CAUSE;
  return { kind: cause.kind as RecomputeCauseKind, datasetId: cause.datasetId, role: cause.role };
}

/** Recomputes claimed measurands in the caller's transaction, then closes their requests and advances their trackers in a few statements for all of them. */
async function recomputeClaimed(tx: DbOrTx, rs: repo.ClaimedRequest[]) {
  const causes = new Map(rs.map((r) => [r.analyteId, versionCauseOf(r.cause)]));
  await recomputeAnalytesMetas(
    tx,
    rs.map((r) => r.analyteId),
    new Date(),
    'all',
    (analyteId) => causes.get(analyteId) ?? UNKNOWN_CAUSE,
  );
  await repo.finishRequests(tx, rs);
  await advanceTrackers(
    tx,
    rs.flatMap((r) => r.jobIds),
  );
}

/** What drains did, added up by `drainOnce` when given one (for the log and the metrics). */
export interface DrainTally {
  /** Requests whose measurand was recomputed and committed. */
  done: number;
  /** Requests whose recompute failed this time (retried later, or dropped after the last attempt). */
  failed: number;
}

/**
 * Claims one batch of requests and recomputes them, a chunk of measurands per transaction (a chunk
 * that fails is redone one measurand at a time, so one bad measurand fails alone and is retried).
 * Extends its claims as it goes (the heartbeat). Returns how many requests it claimed.
 */
export async function drainOnce(
  db: Db,
  opts: DrainOptions,
  onCommitted: () => void,
  tally?: DrainTally,
): Promise<number> {
  const claimed = await repo.claimRequests(db, opts.worker, opts.batchSize, opts.leaseSeconds);
  let beat = Date.now();
  for (let i = 0; i < claimed.length; i += opts.chunkSize) {
    const chunk = claimed.slice(i, i + opts.chunkSize);
    const committed = await db
      .transaction(async (tx) => {
        await recomputeClaimed(tx, chunk);
        await bumpDataGeneration(tx);
      })
      .then(
        () => true,
        () => false,
      );
    if (committed) {
      onCommitted();
      if (tally) tally.done += chunk.length;
    } else {
      for (const r of chunk) {
        const ok = await recomputeAlone(db, r, opts, onCommitted);
        if (tally) tally[ok ? 'done' : 'failed'] += 1;
      }
    }
    if (Date.now() - beat > (opts.leaseSeconds * 1000) / 3) {
      beat = Date.now();
      await repo.extendClaims(
        db,
        opts.worker,
        claimed.slice(i + opts.chunkSize).map((r) => r.analyteId),
        opts.leaseSeconds,
      );
    }
  }
  return claimed.length;
}

async function recomputeAlone(
  db: Db,
  r: repo.ClaimedRequest,
  opts: DrainOptions,
  onCommitted: () => void,
): Promise<boolean> {
  try {
    await db.transaction(async (tx) => {
      await recomputeClaimed(tx, [r]);
      await bumpDataGeneration(tx);
    });
  } catch (err) {
    const message = `Measurand ${r.analyteId}: ${err instanceof Error ? err.message : String(err)}`;
    const outcome = await repo.failRequest(db, r, message, opts.maxAttempts, opts.retryDelaySeconds);
    if (outcome === 'dropped') await failTrackers(db, r.jobIds, message);
    return false;
  }
  onCommitted();
  return true;
}

/**
 * Works on the outbox in this process until the tracker record `trackerId` is finished (a whole-
 * database import with recompute answers when its results are there). Large chunks: few commits.
 * Measurands another worker claimed are waited for, not redone.
 */
export async function recomputeRequestedNow(db: Db, trackerId: number, onCommitted: () => void) {
  const opts: DrainOptions = {
    worker: `${process.pid}-now-${randomUUID().slice(0, 8)}`,
    batchSize: 500,
    chunkSize: 500,
    leaseSeconds: 300,
    maxAttempts: 3,
    retryDelaySeconds: 1,
  };
  for (;;) {
    while ((await drainOnce(db, opts, onCommitted)) > 0) {
      // A full batch or part of one: look again.
    }
    const tracker = await findJobRecord(db, trackerId);
    if (!tracker || tracker.status === 'complete' || tracker.status === 'failed') return tracker;
    await sleep(250);
  }
}
