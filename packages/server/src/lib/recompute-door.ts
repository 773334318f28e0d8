import type { Role } from '@bvdb/contract';
import type { DbOrTx } from '../db/client.js';

/**
 * The door into the recompute as the kernel declares it (decision 048; a port, decision 077): what a
 * write service sees of it through `ServiceDeps.recompute`. The recompute queue's worker
 * (modules/recompute-queue) implements it; app.ts and main.ts hand that worker in.
 */
export interface RecomputeDoor {
  /**
   * Asks, inside the write's own transaction, for the recompute of these measurands (all when no
   * ids), with its cause; resolves to the tracker record that counts them.
   */
  request(tx: DbOrTx, request: RecomputeRequest): Promise<{ id: number }>;
  /** After the write commits: wakes this process's worker when the transaction asked. */
  afterCommit(): void;
}

/** What changed an estimate's inputs (decision 048); the later history of estimates names it. */
export const RECOMPUTE_CAUSE_KINDS = ['dataset', 'appraisal', 'import', 'lookup', 'initial'] as const;
export type RecomputeCauseKind = (typeof RECOMPUTE_CAUSE_KINDS)[number];
/** Who asked, by role, never by name: a signed-in user's role, or `system` (the command line). */
export type ActorRole = Role | 'system';

export interface RecomputeCause {
  kind: RecomputeCauseKind;
  /** The dataset saved, copied, deleted or appraised, when one is the cause. */
  datasetId?: number;
  role: ActorRole;
}

export interface RecomputeRequest {
  /** The measurands whose estimates may have changed; every measurand with datasets or results when absent. */
  analyteIds?: number[];
  cause: RecomputeCause;
}
