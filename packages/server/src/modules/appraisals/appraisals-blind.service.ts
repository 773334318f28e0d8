import type { DbOrTx } from '../../db/client.js';
import { listAuditDetails } from '../audit/index.js';
import { findUserBrief } from '../auth/index.js';
import * as repo from './appraisals.repository.js';

/**
 * What the blind rule hides from one caller (decision 038). Blindness belongs to the round, not
 * to the caller's role: an administrator who is assessor B is as blind as any assessor. And it
 * belongs to the person (decision 082): whoever has held a slot of a round stays blind to it until
 * both first appraisals are in, whatever slot they hold now, none included.
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

/** An `assessor_assigned` entry's before or after: the round, the slot and who held it. */
interface SlotHolding {
  round_id: number;
  slot: string;
  assessor: string;
}
const holdingOf = (details: unknown): SlotHolding | undefined => {
  const d = details as Partial<SlotHolding> | null;
  return d && typeof d.round_id === 'number' && typeof d.slot === 'string' && typeof d.assessor === 'string'
    ? (d as SlotHolding)
    : undefined;
};

/**
 * Everyone who has held each slot of a round: its holder now and every earlier one. Each assignment
 * writes its audit entry (the slot, the assessor's e-mail before and after) in the transaction that
 * makes it, and an account's e-mail never changes, so the trail is the complete record (decision 082).
 */
export function slotHoldersFrom(
  roundId: number,
  current: readonly { slot: string; email: string }[],
  entries: readonly { before: unknown; after: unknown }[],
): Map<string, Set<string>> {
  const holders = new Map<string, Set<string>>();
  const add = (slot: string, email: string) => holders.set(slot, (holders.get(slot) ?? new Set()).add(email));
  for (const c of current) add(c.slot, c.email);
  for (const e of entries) {
    for (const h of [holdingOf(e.before), holdingOf(e.after)]) {
      if (h?.round_id === roundId) add(h.slot, h.assessor);
    }
  }
  return holders;
}

/**
 * The one function every reader of appraisal rows asks (the appraisal API, the board, the
 * agreement figures, the audit trail, the full backup): for this caller, which rounds are blind,
 * and which appraisals and audit entries of theirs to leave out. The rule of decision 008: each of
 * the first two assessors sees only their own appraisal until both are in; decision 082: so does
 * anyone who held the A or B slot of the round before (reassigned away, or to the other slot). The
 * third assessor's slot exists only once both are in, so the third sees A and B (as their page
 * must) and is never blind; A and B never see a third's decisions before the round is final,
 * because a third's only submission makes it final.
 */
export async function blindViewFor(db: DbOrTx, userId: number | null): Promise<BlindView> {
  if (userId === null) return SEES_EVERYTHING;
  const unsettled = await repo.listUnsettledRounds(db);
  if (unsettled.length === 0) return SEES_EVERYTHING;
  const email = (await findUserBrief({ db }, userId))?.email;
  const parts = await repo.appraisalsOfRounds(
    db,
    unsettled.map((r) => r.id),
  );
  const entries = await listAuditDetails(db, 'bv_specification', [
    ...new Set(unsettled.map((r) => r.datasetId)),
  ]);
  const held = new Set(
    parts.filter((p) => p.appraisal.assessorId === userId).map((p) => p.appraisal.roundId),
  );
  if (email !== undefined) {
    for (const e of entries) {
      for (const h of [holdingOf(e.before), holdingOf(e.after)]) {
        if (h?.assessor === email && h.slot !== 'third') held.add(h.round_id);
      }
    }
  }
  const roundIds = new Set(unsettled.filter((r) => held.has(r.id)).map((r) => r.id));
  if (roundIds.size === 0) return SEES_EVERYTHING;
  const appraisalIds = parts
    .filter((p) => roundIds.has(p.appraisal.roundId) && p.appraisal.assessorId !== userId)
    .map((p) => p.appraisal.id);
  const auditEntryIds = entries
    .filter((e) => {
      const round = roundOf(e.after) ?? roundOf(e.before);
      return round !== undefined && roundIds.has(round) && (saysMore(e.after) || saysMore(e.before));
    })
    .map((e) => e.id);
  return { roundIds, appraisalIds: new Set(appraisalIds), auditEntryIds: new Set(auditEntryIds) };
}
