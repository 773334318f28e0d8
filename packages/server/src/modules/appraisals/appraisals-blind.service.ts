import type { DbOrTx } from '../../db/client.js';
import { listAuditDetails } from '../audit/index.js';
import * as repo from './appraisals.repository.js';

/**
 * What the blind rule hides from one caller (decision 038). Blindness belongs to the round, not
 * to the caller's role: an administrator who is assessor B is as blind as any assessor.
 */
export interface BlindView {
  /** Rounds the caller assesses (A, B or third) whose two first appraisals are not both in. */
  roundIds: ReadonlySet<number>;
  /** The other assessors' appraisals of those rounds: never shown to the caller. */
  appraisalIds: ReadonlySet<number>;
  /** Audit entries of those rounds that say more than who was assigned or submitted when. */
  auditEntryIds: ReadonlySet<number>;
}

/** A non-participant, or the command line (the operator): nothing is hidden. */
export const SEES_EVERYTHING: BlindView = {
  roundIds: new Set(),
  appraisalIds: new Set(),
  auditEntryIds: new Set(),
};

/**
 * What an appraisal's audit entry may carry and still be shown to the round's assessors: the round,
 * the slot, who was assigned. Grades, comments and disputed items are withheld until both first
 * appraisals are in (the entries written today carry none before then; this holds for any other).
 */
const BOOKKEEPING_KEYS = new Set(['round_id', 'slot', 'assessor']);

const roundOf = (details: unknown): number | undefined => {
  const id = (details as { round_id?: unknown } | null)?.round_id;
  return typeof id === 'number' ? id : undefined;
};
const saysMore = (details: unknown): boolean =>
  details !== null &&
  typeof details === 'object' &&
  Object.keys(details).some((key) => !BOOKKEEPING_KEYS.has(key));

/**
 * The one function every reader of appraisal rows asks (the appraisal API, the board, the
 * agreement figures, the audit trail, the full backup): for this caller, which rounds are blind,
 * and which appraisals and audit entries of theirs to leave out. The rule of decision 008: each of
 * the first two assessors sees only their own appraisal until both are in. The third assessor's
 * slot exists only once both are in, so the third sees A and B (as their page must) and is never
 * blind; A and B never see a third's decisions before the round is final, because a third's only
 * submission makes it final.
 */
export async function blindViewFor(db: DbOrTx, userId: number | null): Promise<BlindView> {
  if (userId === null) return SEES_EVERYTHING;
  const { rounds, otherAppraisalIds } = await repo.listRoundsBlindTo(db, userId);
  if (rounds.length === 0) return SEES_EVERYTHING;
  const roundIds = new Set(rounds.map((r) => r.id));
  const entries = await listAuditDetails(db, 'bv_specification', [
    ...new Set(rounds.map((r) => r.datasetId)),
  ]);
  const auditEntryIds = entries
    .filter((e) => {
      const round = roundOf(e.after) ?? roundOf(e.before);
      return round !== undefined && roundIds.has(round) && (saysMore(e.after) || saysMore(e.before));
    })
    .map((e) => e.id);
  return { roundIds, appraisalIds: new Set(otherAppraisalIds), auditEntryIds: new Set(auditEntryIds) };
}
