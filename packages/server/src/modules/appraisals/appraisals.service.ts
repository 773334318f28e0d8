import type {
  AssignAssessorBody,
  BoardRow,
  MyAppraisal,
  RoundState,
  SubmitAppraisalBody,
} from '@bvdb/contract';
import {
  agreementShare,
  cohensKappa,
  disputedItems,
  finalGradesOf,
  QUALITY_ITEMS,
  validateBivacGrades,
  type BivacGrades,
  type QualityItemKey,
} from '@bvdb/domain';
import type { DbOrTx, Tx } from '../../db/client.js';
import type { Actor } from '../../lib/actor.js';
import { AppError, notFound } from '../../lib/app-error.js';
import type { ServiceDeps } from '../../lib/service-deps.js';
import { DATA_SCOPES } from '../../lib/response-cache.js';
import { NO_PUBLIC_DATA, writeTransaction } from '../../lib/write-transaction.js';
import { findCreatorId, recordAudit } from '../audit/index.js';
import { findUserBrief, listActiveUserBriefs, type UserBrief } from '../auth/index.js';
import { applyFinalGrades, markInAppraisal } from '../datasets/index.js';
import { sendNotifications, siteLink, type Message } from '../mail/index.js';
import { blindViewFor, type BlindView } from './appraisals-blind.service.js';
import { presentBoardRow, presentMyAppraisal, type AssessorPart } from './appraisals.presenter.js';
import * as repo from './appraisals.repository.js';

const SLOT_NAMES = { A: 'first', B: 'second', third: 'third' } as const;
const itemName = (key: string) => {
  const item = QUALITY_ITEMS.find((i) => i.key === key);
  return item ? `QI${item.number} ${item.label}` : key;
};

/** The state a round is in, from its appraisals (decision 008). */
function stateOf(parts: { slot: string; submittedAt: Date | null; grades: unknown }[]): RoundState {
  const a = parts.find((p) => p.slot === 'A');
  const b = parts.find((p) => p.slot === 'B');
  if (!a || !b) return 'unassigned';
  if (!a.submittedAt || !b.submittedAt) return 'waiting';
  return disputedItems(a.grades as BivacGrades, b.grades as BivacGrades).length === 0 ? 'final' : 'disputed';
}

const cleanComments = (comments: Record<string, string | undefined> | undefined, keys: readonly string[]) =>
  Object.fromEntries(keys.map((k) => [k, comments?.[k]?.trim() ?? ''] as const).filter(([, v]) => v !== ''));

/**
 * The appraisal workflow: two independent assessors per dataset, a third on disagreement, final
 * grades into the dataset and its measurand's meta-analyses recomputed. Every step is one
 * transaction with its audit entry; e-mails go after the commit.
 */
/** Whether an appraisal has this id, whoever it is assigned to (its page answers 404 when not). */
export async function appraisalExists(db: DbOrTx, id: number): Promise<boolean> {
  return (await repo.findAppraisal(db, id)) !== undefined;
}

export class AppraisalService {
  constructor(private readonly deps: ServiceDeps) {}

  /** A curator sends a dataset to appraisal (409 when a round is open). */
  async open(datasetId: number, userId: number): Promise<BoardRow> {
    const roundId = await writeTransaction(
      this.deps,
      async (tx) => (await this.openInTransaction(tx, datasetId, userId)).id,
      DATA_SCOPES,
    );
    await this.notifyCuratorsOfUnassigned(roundId);
    return this.boardRow(roundId, userId);
  }

  /** Opens a round inside the caller's transaction (also for a dataset entered "in appraisal"). */
  async openInTransaction(tx: Tx, datasetId: number, userId: number | null) {
    if (await repo.findOpenRoundId(tx, datasetId)) {
      throw new AppError('conflict', `Dataset ${datasetId} is in appraisal already.`);
    }
    await markInAppraisal(tx, datasetId);
    const round = await repo.insertRound(tx, { datasetId, openedBy: userId });
    await recordAudit(tx, {
      userId,
      entity: 'bv_specification',
      entityId: datasetId,
      action: 'appraisal_opened',
      after: { round_id: round.id },
    });
    return round;
  }

  /** Tells curators a round waits for assessors (after the commit of its opening). */
  async notifyCuratorsOfUnassigned(roundId: number): Promise<void> {
    const row = await repo.findRoundWithDataset(this.deps.db, roundId);
    if (!row) return;
    await this.notifyCurators(
      `Dataset ${row.dataset.uniqueIdentifier} (${row.analyte}) waits for two assessors`,
      `The dataset ${row.dataset.uniqueIdentifier} of ${row.analyte} is in appraisal and has no assessors yet.\n\nAssign them on the board: ${siteLink(this.deps, '/appraisals/board')}`,
    );
  }

  async assign(roundId: number, body: AssignAssessorBody, userId: number): Promise<BoardRow> {
    const assessor = await findUserBrief(this.deps, body.assessor_id);
    const message = await writeTransaction(
      this.deps,
      async (tx) => {
        const round = await repo.lockRound(tx, roundId);
        if (!round) throw notFound(`Appraisal round ${roundId}`);
        if (round.version !== body.version) {
          throw new AppError('conflict', 'This round changed after you loaded the board; reload it.');
        }
        if (round.state === 'final') throw new AppError('conflict', 'This round is final.');
        if (body.slot === 'third' && round.state !== 'disputed') {
          throw new AppError(
            'unprocessable',
            'A third assessor is assigned only when the first two appraisals disagree.',
          );
        }
        if (body.slot !== 'third' && round.state === 'disputed') {
          throw new AppError('conflict', 'Both first appraisals are submitted and kept.');
        }
        if (!assessor || !assessor.active) {
          throw new AppError('unprocessable', `User ${body.assessor_id} is not an active user.`, {
            fields: [{ path: 'body.assessor_id', message: 'Choose an active user' }],
          });
        }
        const parts = await repo.appraisalsOfRounds(tx, [roundId]);
        const current = parts.find((p) => p.appraisal.slot === body.slot);
        if (current?.appraisal.submittedAt) {
          throw new AppError(
            'conflict',
            `The ${SLOT_NAMES[body.slot]} appraisal is submitted and kept; its assessor cannot be changed.`,
          );
        }
        const others = parts.filter((p) => p.appraisal.slot !== body.slot).map((p) => p.appraisal.assessorId);
        if (others.includes(assessor.id)) {
          throw new AppError('unprocessable', `${assessor.email} appraises this dataset already.`, {
            fields: [{ path: 'body.assessor_id', message: 'Choose someone else' }],
          });
        }
        const enteredBy = await findCreatorId(tx, 'bv_specification', round.datasetId);
        if (enteredBy === assessor.id) {
          const available = (await listActiveUserBriefs({ db: tx })).filter(
            (u) => u.id !== enteredBy && !others.includes(u.id),
          );
          if (available.length > 0) {
            throw new AppError(
              'unprocessable',
              `${assessor.email} entered this dataset; choose another assessor (${available.length} available).`,
              { fields: [{ path: 'body.assessor_id', message: 'Not the one who entered the dataset' }] },
            );
          }
        }
        const appraisal = current
          ? await repo.updateAppraisal(tx, current.appraisal.id, {
              assessorId: assessor.id,
              assignedBy: userId,
              assignedAt: new Date(),
              version: current.appraisal.version + 1,
            })
          : await repo.insertAppraisal(tx, {
              roundId,
              slot: body.slot,
              assessorId: assessor.id,
              assignedBy: userId,
            });
        const after = await repo.appraisalsOfRounds(tx, [roundId]);
        const state = round.state === 'disputed' ? 'disputed' : stateOf(after.map((p) => p.appraisal));
        await repo.updateRound(tx, roundId, {
          version: round.version + 1,
          state,
          ...(state !== round.state ? { stateChangedAt: new Date() } : {}),
        });
        await recordAudit(tx, {
          userId,
          entity: 'bv_specification',
          entityId: round.datasetId,
          action: 'assessor_assigned',
          ...(current ? { before: { round_id: roundId, slot: body.slot, assessor: current.email } } : {}),
          after: { round_id: roundId, slot: body.slot, assessor: assessor.email },
        });
        return this.assignmentMessage(tx, roundId, appraisal.id, assessor);
      },
      NO_PUBLIC_DATA,
    );
    if (message) await sendNotifications(this.deps, [message]);
    return this.boardRow(roundId, userId);
  }

  private async assignmentMessage(
    tx: Tx,
    roundId: number,
    appraisalId: number,
    assessor: UserBrief,
  ): Promise<Message | null> {
    const row = await repo.findRoundWithDataset(tx, roundId);
    if (!row) return null;
    return {
      to: assessor.email,
      subject: `A dataset waits for your appraisal: ${row.dataset.uniqueIdentifier} (${row.analyte})`,
      text:
        `You are asked to appraise the dataset ${row.dataset.uniqueIdentifier} of ${row.analyte} ` +
        `(${row.reference.title ?? 'untitled paper'}) with the BIVAC checklist.\n\n` +
        `Open it under My appraisals: ${siteLink(this.deps, `/appraisals/${appraisalId}`)}`,
    };
  }

  async board(state: RoundState | undefined, userId: number) {
    const view = await blindViewFor(this.deps.db, userId);
    const rows = await repo.listBoardRounds(this.deps.db, state);
    const parts = await repo.appraisalsOfRounds(
      this.deps.db,
      rows.map((r) => r.round.id),
    );
    const data: BoardRow[] = [];
    for (const row of rows) {
      data.push(
        await this.presentRow(
          row,
          parts.filter((p) => p.appraisal.roundId === row.round.id),
          view,
        ),
      );
    }
    const assessors = (await listActiveUserBriefs(this.deps)).map(({ id, email, name, role }) => ({
      id,
      email,
      name,
      role,
    }));
    return { data, assessors };
  }

  private async boardRow(roundId: number, userId: number): Promise<BoardRow> {
    const row = await repo.findRoundWithDataset(this.deps.db, roundId);
    if (!row) throw notFound(`Appraisal round ${roundId}`);
    const view = await blindViewFor(this.deps.db, userId);
    return this.presentRow(row, await repo.appraisalsOfRounds(this.deps.db, [roundId]), view);
  }

  /** The board shows no grade; the disputed items only once the round is no longer blind. */
  private async presentRow(
    row: repo.RoundWithDataset,
    parts: AssessorPart[],
    view: BlindView,
  ): Promise<BoardRow> {
    const a = parts.find((p) => p.appraisal.slot === 'A')?.appraisal;
    const b = parts.find((p) => p.appraisal.slot === 'B')?.appraisal;
    const bothIn = a?.submittedAt && b?.submittedAt && !view.roundIds.has(row.round.id);
    return presentBoardRow(row, parts, {
      enteredBy: await findCreatorId(this.deps.db, 'bv_specification', row.dataset.id),
      disputedItems: bothIn ? disputedItems(a.grades as BivacGrades, b.grades as BivacGrades) : [],
    });
  }

  async mine(userId: number): Promise<MyAppraisal[]> {
    const rows = await repo.listAppraisalsOfAssessor(this.deps.db, userId);
    const view = await blindViewFor(this.deps.db, userId);
    return Promise.all(rows.map((r) => this.presentMine(r, view)));
  }

  async one(appraisalId: number, userId: number): Promise<MyAppraisal> {
    const found = await repo.findAppraisal(this.deps.db, appraisalId);
    if (!found) throw notFound(`Appraisal ${appraisalId}`);
    if (found.assessorId !== userId) {
      throw new AppError('forbidden', 'This appraisal is assigned to someone else.');
    }
    const [row] = await repo.listAppraisalsOfAssessor(this.deps.db, userId, appraisalId);
    if (!row) throw notFound(`Appraisal ${appraisalId}`);
    return this.presentMine(row, await blindViewFor(this.deps.db, userId));
  }

  /**
   * The third assessor sees both first appraisals; A and B see only their own, also once the
   * round is no longer blind (decision 008: their page is for their own appraisal).
   */
  private async presentMine(
    row: Awaited<ReturnType<typeof repo.listAppraisalsOfAssessor>>[number],
    view: BlindView,
  ) {
    if (row.appraisal.slot !== 'third' || view.roundIds.has(row.round.id)) {
      return presentMyAppraisal(row, null);
    }
    const parts = (await repo.appraisalsOfRounds(this.deps.db, [row.round.id]))
      .map((p) => p.appraisal)
      .filter((p) => !view.appraisalIds.has(p.id));
    const a = parts.find((p) => p.slot === 'A');
    const b = parts.find((p) => p.slot === 'B');
    if (!a?.submittedAt || !b?.submittedAt) return presentMyAppraisal(row, null);
    return presentMyAppraisal(row, {
      disputedItems: disputedItems(a.grades as BivacGrades, b.grades as BivacGrades),
      others: [a, b],
    });
  }

  async submit(appraisalId: number, body: SubmitAppraisalBody, actor: Actor): Promise<MyAppraisal> {
    const userId = actor.id;
    const found = await repo.findAppraisal(this.deps.db, appraisalId);
    if (!found) throw notFound(`Appraisal ${appraisalId}`);
    if (found.assessorId !== userId) {
      throw new AppError('forbidden', 'This appraisal is assigned to someone else.');
    }
    const outcome = await writeTransaction(
      this.deps,
      async (tx) => {
        // The round first: two submissions of one round take their turns here.
        const round = await repo.lockRound(tx, found.roundId);
        if (!round) throw notFound(`Appraisal ${appraisalId}`);
        const parts = (await repo.appraisalsOfRounds(tx, [round.id])).map((p) => p.appraisal);
        const mine = parts.find((p) => p.id === appraisalId);
        if (!mine || mine.assessorId !== userId) {
          throw new AppError('forbidden', 'This appraisal is assigned to someone else.');
        }
        if (mine.submittedAt) throw new AppError('conflict', 'This appraisal is submitted already.');
        if (mine.version !== body.version) {
          throw new AppError('conflict', 'This appraisal changed after you opened it; reload it.');
        }
        if (round.state === 'final') throw new AppError('conflict', 'This round is final.');
        const a = parts.find((p) => p.slot === 'A');
        const b = parts.find((p) => p.slot === 'B');
        const disputed =
          mine.slot === 'third' && a?.submittedAt && b?.submittedAt
            ? disputedItems(a.grades as BivacGrades, b.grades as BivacGrades)
            : null;
        if (mine.slot === 'third' && !disputed) {
          throw new AppError('conflict', 'The first two appraisals are not both in yet.');
        }
        const grades = disputed ? this.checkDecisions(body, disputed) : this.checkGrades(body);
        const keys = Object.keys(grades);
        const submitted = await repo.submitAppraisalRow(tx, appraisalId, body.version, {
          grades,
          comments: cleanComments(body.comments, keys),
        });
        if (!submitted)
          throw new AppError('conflict', 'This appraisal changed after you opened it; reload it.');
        await recordAudit(tx, {
          userId,
          entity: 'bv_specification',
          entityId: round.datasetId,
          action: 'appraisal_submitted',
          after: { round_id: round.id, slot: mine.slot },
        });
        const now = parts.map((p) => (p.id === submitted.id ? submitted : p));
        return this.advance(tx, round, now, actor);
      },
      DATA_SCOPES,
    );
    if (outcome === 'disputed') {
      const row = await repo.findRoundWithDataset(this.deps.db, found.roundId);
      if (row) {
        await this.notifyCurators(
          `Dataset ${row.dataset.uniqueIdentifier} (${row.analyte}) needs a third assessor`,
          `The two appraisals of ${row.dataset.uniqueIdentifier} (${row.analyte}) differ. Assign a third assessor: ${siteLink(this.deps, '/appraisals/board')}`,
        );
      }
    }
    return this.one(appraisalId, userId);
  }

  /** After a submission: nothing yet, disputed, or final (grades into the dataset, meta recomputed). */
  private async advance(
    tx: Tx,
    round: repo.RoundRow,
    parts: repo.AppraisalRow[],
    actor: Actor,
  ): Promise<RoundState> {
    const userId = actor.id;
    const a = parts.find((p) => p.slot === 'A');
    const b = parts.find((p) => p.slot === 'B');
    const third = parts.find((p) => p.slot === 'third');
    if (!a?.submittedAt || !b?.submittedAt) {
      await repo.updateRound(tx, round.id, { version: round.version + 1 });
      return round.state as RoundState;
    }
    const ga = a.grades as BivacGrades;
    const gb = b.grades as BivacGrades;
    const disputed = disputedItems(ga, gb);
    if (disputed.length > 0 && !third?.submittedAt) {
      await repo.updateRound(tx, round.id, {
        version: round.version + 1,
        state: 'disputed',
        stateChangedAt: new Date(),
      });
      await recordAudit(tx, {
        userId,
        entity: 'bv_specification',
        entityId: round.datasetId,
        action: 'appraisal_disputed',
        after: { round_id: round.id, disputed_items: disputed },
      });
      return 'disputed';
    }
    const final = finalGradesOf(ga, gb, third?.grades ?? {});
    const now = new Date();
    await repo.updateRound(tx, round.id, {
      version: round.version + 1,
      state: 'final',
      stateChangedAt: now,
      finalizedAt: now,
      finalGrades: final,
    });
    const { before } = await applyFinalGrades(this.deps, tx, round.datasetId, final, actor.role);
    await recordAudit(tx, {
      userId,
      entity: 'bv_specification',
      entityId: round.datasetId,
      action: 'appraisal_final',
      before: { ...before },
      after: { ...final, round_id: round.id },
    });
    return 'final';
  }

  /** A and B: all 14 items, each with a grade it allows (422 names the item). */
  private checkGrades(body: SubmitAppraisalBody): Record<string, string> {
    const result = validateBivacGrades(body.grades);
    if (result.ok) return result.grades;
    throw new AppError('unprocessable', result.errors.map((e) => e.message).join('; '), {
      fields: result.errors.map((e) => ({ path: `body.grades.${e.key}`, message: e.message })),
    });
  }

  /** The third assessor: a grade for each disputed item, and nothing else. */
  private checkDecisions(body: SubmitAppraisalBody, disputed: readonly QualityItemKey[]) {
    const errors: { path: string; message: string }[] = [];
    const out: Record<string, string> = {};
    for (const key of Object.keys(body.grades)) {
      if (!disputed.includes(key as QualityItemKey) && body.grades[key as QualityItemKey] !== undefined) {
        errors.push({
          path: `body.grades.${key}`,
          message: `${itemName(key)}: not disputed (the first two appraisals agree on it)`,
        });
      }
    }
    for (const key of disputed) {
      const item = QUALITY_ITEMS.find((i) => i.key === key)!;
      const allowed = item.allowedGrades as readonly string[];
      const grade = body.grades[key];
      if (grade === undefined || grade === '') {
        errors.push({
          path: `body.grades.${key}`,
          message: `${itemName(key)}: a decision is required (allowed: ${allowed.join(', ')})`,
        });
      } else if (!allowed.includes(grade)) {
        errors.push({
          path: `body.grades.${key}`,
          message: `${itemName(key)}: grade ${grade} is not allowed (allowed: ${allowed.join(', ')})`,
        });
      } else out[key] = grade;
    }
    if (errors.length > 0) {
      throw new AppError('unprocessable', errors.map((e) => e.message).join('; '), { fields: errors });
    }
    return out;
  }

  private async notifyCurators(subject: string, text: string): Promise<void> {
    const curators = (await listActiveUserBriefs(this.deps)).filter((u) =>
      ['admin', 'curator'].includes(u.role),
    );
    await sendNotifications(
      this.deps,
      curators.map((c) => ({ to: c.email, subject, text })),
    );
  }

  /**
   * Per item: the share of first-appraisal pairs that agreed and Cohen's kappa, over a period; never
   * with a round that is blind to the caller.
   */
  async agreement(from: string | undefined, to: string | undefined, userId: number) {
    const start = from ? new Date(`${from}T00:00:00Z`) : null;
    // `to` is a whole day: up to the start of the next one.
    const end = to ? new Date(new Date(`${to}T00:00:00Z`).getTime() + 24 * 60 * 60 * 1000) : null;
    const view = await blindViewFor(this.deps.db, userId);
    const pairs = (await repo.listFirstAppraisalPairs(this.deps.db, start, end)).filter(
      (p) => !view.roundIds.has(p.roundId),
    );
    return {
      from: from ?? null,
      to: to ?? null,
      rounds: pairs.length,
      items: QUALITY_ITEMS.map((item) => {
        const itemPairs = pairs
          .map((p) => [p.a[item.key], p.b[item.key]] as const)
          .filter((p): p is readonly [string, string] => p[0] !== undefined && p[1] !== undefined);
        return {
          key: item.key,
          number: item.number,
          label: item.label,
          pairs: itemPairs.length,
          agreed_share: agreementShare(itemPairs),
          kappa: cohensKappa(itemPairs),
        };
      }),
    };
  }
}
