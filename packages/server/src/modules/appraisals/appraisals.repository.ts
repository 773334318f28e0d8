import { and, asc, desc, eq, inArray, isNotNull, ne, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import {
  analytes,
  appraisalRounds,
  appraisals,
  bvSpecifications,
  matrices,
  references,
  users,
} from '../../db/schema.js';

export type RoundRow = typeof appraisalRounds.$inferSelect;
export type AppraisalRow = typeof appraisals.$inferSelect;
export type RoundState = 'unassigned' | 'waiting' | 'disputed' | 'final';

/** The dataset and paper of a round, as the board and the assessor's page show them. */
const datasetColumns = {
  dataset: {
    id: bvSpecifications.id,
    uniqueIdentifier: bvSpecifications.uniqueIdentifier,
    analyteId: bvSpecifications.analyteId,
  },
  analyte: analytes.displayName,
  matrix: matrices.matrixExpansion,
  reference: {
    id: references.id,
    title: references.title,
    author: references.author,
    journal: references.journal,
    yearOfPublication: references.yearOfPublication,
    doi: references.doi,
    pubmedLink: references.pubmedLink,
    articleFileKey: references.articleFileKey,
  },
};

export async function insertRound(tx: DbOrTx, values: { datasetId: number; openedBy: number | null }) {
  const [row] = await tx.insert(appraisalRounds).values(values).returning();
  return row!;
}

export async function findOpenRoundId(db: DbOrTx, datasetId: number): Promise<number | undefined> {
  const [row] = await db
    .select({ id: appraisalRounds.id })
    .from(appraisalRounds)
    .where(and(eq(appraisalRounds.datasetId, datasetId), ne(appraisalRounds.state, 'final')));
  return row?.id;
}

export async function lockRound(tx: DbOrTx, id: number): Promise<RoundRow | undefined> {
  const [row] = await tx.select().from(appraisalRounds).where(eq(appraisalRounds.id, id)).for('update');
  return row;
}

export async function updateRound(
  tx: DbOrTx,
  id: number,
  values: Partial<typeof appraisalRounds.$inferInsert>,
) {
  const [row] = await tx.update(appraisalRounds).set(values).where(eq(appraisalRounds.id, id)).returning();
  return row!;
}

export async function findAppraisal(db: DbOrTx, id: number): Promise<AppraisalRow | undefined> {
  const [row] = await db.select().from(appraisals).where(eq(appraisals.id, id));
  return row;
}

export async function appraisalsOfRounds(db: DbOrTx, roundIds: number[]) {
  if (roundIds.length === 0) return [];
  return db
    .select({ appraisal: appraisals, email: users.email, name: users.name })
    .from(appraisals)
    .innerJoin(users, eq(users.id, appraisals.assessorId))
    .where(inArray(appraisals.roundId, roundIds))
    .orderBy(asc(appraisals.id));
}

export async function insertAppraisal(
  tx: DbOrTx,
  values: { roundId: number; slot: string; assessorId: number; assignedBy: number },
): Promise<AppraisalRow> {
  const [row] = await tx.insert(appraisals).values(values).returning();
  return row!;
}

export async function updateAppraisal(
  tx: DbOrTx,
  id: number,
  values: Partial<typeof appraisals.$inferInsert>,
): Promise<AppraisalRow> {
  const [row] = await tx.update(appraisals).set(values).where(eq(appraisals.id, id)).returning();
  return row!;
}

/**
 * Submits only the version the assessor saw, and only once: a racing second submission updates no
 * row (the caller answers 409).
 */
export async function submitAppraisalRow(
  tx: DbOrTx,
  id: number,
  version: number,
  values: { grades: Record<string, string>; comments: Record<string, string> },
): Promise<AppraisalRow | undefined> {
  const [row] = await tx
    .update(appraisals)
    .set({ ...values, submittedAt: new Date(), version: version + 1 })
    .where(
      and(eq(appraisals.id, id), eq(appraisals.version, version), sql`${appraisals.submittedAt} is null`),
    )
    .returning();
  return row;
}

function selectRoundsWithDatasets(db: DbOrTx) {
  return db
    .select({ round: appraisalRounds, ...datasetColumns })
    .from(appraisalRounds)
    .innerJoin(bvSpecifications, eq(bvSpecifications.id, appraisalRounds.datasetId))
    .innerJoin(analytes, eq(analytes.id, bvSpecifications.analyteId))
    .innerJoin(references, eq(references.id, bvSpecifications.referenceId))
    .leftJoin(matrices, eq(matrices.id, bvSpecifications.matrixId));
}

export type RoundWithDataset = Awaited<ReturnType<typeof findRoundWithDataset>> & object;

export async function findRoundWithDataset(db: DbOrTx, roundId: number) {
  const [row] = await selectRoundsWithDatasets(db).where(eq(appraisalRounds.id, roundId));
  return row;
}

/** Open rounds (oldest in their state first), then the last 100 final ones. */
export async function listBoardRounds(db: DbOrTx, state?: RoundState) {
  if (state === 'final') return finalRounds(db);
  const open = await selectRoundsWithDatasets(db)
    .where(state ? eq(appraisalRounds.state, state) : ne(appraisalRounds.state, 'final'))
    .orderBy(asc(appraisalRounds.stateChangedAt), asc(appraisalRounds.id));
  if (state) return open;
  return [...open, ...(await finalRounds(db))];
}

const finalRounds = (db: DbOrTx) =>
  selectRoundsWithDatasets(db)
    .where(eq(appraisalRounds.state, 'final'))
    .orderBy(desc(appraisalRounds.finalizedAt), desc(appraisalRounds.id))
    .limit(100);

/** One assessor's appraisals with their rounds, datasets and papers: waiting first, then newest. */
export async function listAppraisalsOfAssessor(db: DbOrTx, assessorId: number, appraisalId?: number) {
  const where: SQL[] = [eq(appraisals.assessorId, assessorId)];
  if (appraisalId !== undefined) where.push(eq(appraisals.id, appraisalId));
  return db
    .select({ appraisal: appraisals, round: appraisalRounds, ...datasetColumns })
    .from(appraisals)
    .innerJoin(appraisalRounds, eq(appraisalRounds.id, appraisals.roundId))
    .innerJoin(bvSpecifications, eq(bvSpecifications.id, appraisalRounds.datasetId))
    .innerJoin(analytes, eq(analytes.id, bvSpecifications.analyteId))
    .innerJoin(references, eq(references.id, bvSpecifications.referenceId))
    .leftJoin(matrices, eq(matrices.id, bvSpecifications.matrixId))
    .where(and(...where))
    .orderBy(sql`${appraisals.submittedAt} is not null`, desc(appraisals.assignedAt), desc(appraisals.id));
}

/**
 * The first two appraisals (A and B) of every round whose later one came in within [from, to):
 * the pairs of the agreement figures.
 */
export async function listFirstAppraisalPairs(db: DbOrTx, from: Date | null, to: Date | null) {
  const rows = await db
    .select({
      roundId: appraisals.roundId,
      slot: appraisals.slot,
      grades: appraisals.grades,
      at: appraisals.submittedAt,
    })
    .from(appraisals)
    .where(and(inArray(appraisals.slot, ['A', 'B']), isNotNull(appraisals.submittedAt)))
    .orderBy(asc(appraisals.roundId));
  type Pair = { roundId: number; a?: Record<string, string>; b?: Record<string, string>; at: Date };
  const byRound = new Map<number, Pair>();
  for (const r of rows) {
    const entry = byRound.get(r.roundId) ?? { roundId: r.roundId, at: r.at! };
    if (r.slot === 'A') entry.a = r.grades ?? {};
    else entry.b = r.grades ?? {};
    if (r.at! > entry.at) entry.at = r.at!;
    byRound.set(r.roundId, entry);
  }
  return [...byRound.values()].filter(
    (e): e is Pair & { a: Record<string, string>; b: Record<string, string> } =>
      e.a !== undefined && e.b !== undefined && (!from || e.at >= from) && (!to || e.at < to),
  );
}

/**
 * The open rounds whose two first appraisals are not both submitted: the only ones the blind rule
 * can hide anything of (a final round always has both in). Few: the rounds on the board.
 */
export async function listUnsettledRounds(db: DbOrTx) {
  return db
    .select({ id: appraisalRounds.id, datasetId: appraisalRounds.datasetId })
    .from(appraisalRounds)
    .where(
      and(
        ne(appraisalRounds.state, 'final'),
        sql`(select count(*) from ${appraisals} f where f.round_id = ${appraisalRounds.id}
              and f.slot in ('A', 'B') and f.submitted_at is not null) < 2`,
      ),
    );
}
