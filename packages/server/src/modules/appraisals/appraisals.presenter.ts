import type { AppraisalSlot, BoardRow, MyAppraisal, RoundState } from '@bvdb/contract';
import type { AppraisalRow, RoundRow } from './appraisals.repository.js';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface DatasetParts {
  dataset: { id: number; uniqueIdentifier: string; analyteId: number };
  analyte: string;
  matrix: string | null;
  reference: {
    id: number;
    title: string | null;
    author: string | null;
    journal: string | null;
    yearOfPublication: number | null;
    doi: string | null;
    pubmedLink: string | null;
    articleFileKey: string | null;
  };
}

export interface AssessorPart {
  appraisal: AppraisalRow;
  email: string;
  name: string | null;
}

const datasetOf = (p: DatasetParts) => ({
  id: p.dataset.id,
  unique_identifier: p.dataset.uniqueIdentifier,
  analyte_id: p.dataset.analyteId,
  analyte: p.analyte,
  matrix: p.matrix,
});

const referenceOf = (p: DatasetParts) => ({
  id: p.reference.id,
  title: p.reference.title,
  author: p.reference.author,
  journal: p.reference.journal,
  year_of_publication: p.reference.yearOfPublication,
  doi: p.reference.doi,
  pubmed_link: p.reference.pubmedLink,
  file_url: p.reference.articleFileKey ? `/api/references/${p.reference.id}/file` : null,
});

/** A board row: who appraises what and since when; never a grade before the round is final. */
export function presentBoardRow(
  p: DatasetParts & { round: RoundRow },
  assessors: AssessorPart[],
  extra: { enteredBy: number | null; disputedItems: string[] },
  now = new Date(),
): BoardRow {
  const { round } = p;
  return {
    round_id: round.id,
    version: round.version,
    state: round.state as RoundState,
    waiting_for: assessors
      .filter((a) => a.appraisal.submittedAt === null)
      .map((a) => a.appraisal.slot as AppraisalSlot),
    opened_at: round.openedAt.toISOString(),
    state_changed_at: round.stateChangedAt.toISOString(),
    age_days: Math.max(0, Math.floor((now.getTime() - round.stateChangedAt.getTime()) / DAY_MS)),
    finalized_at: round.finalizedAt?.toISOString() ?? null,
    dataset: datasetOf(p),
    reference_title: p.reference.title,
    entered_by: extra.enteredBy,
    assessors: assessors.map((a) => ({
      slot: a.appraisal.slot as AppraisalSlot,
      appraisal_id: a.appraisal.id,
      user_id: a.appraisal.assessorId,
      email: a.email,
      name: a.name,
      assigned_at: a.appraisal.assignedAt.toISOString(),
      submitted_at: a.appraisal.submittedAt?.toISOString() ?? null,
    })),
    disputed_items: extra.disputedItems,
  };
}

/**
 * What one assessor sees of their appraisal. Blind (decision 008): the other appraisals are shown
 * to the third assessor only, whose slot exists only once both first appraisals are in.
 */
export function presentMyAppraisal(
  p: DatasetParts & { round: RoundRow; appraisal: AppraisalRow },
  third: { disputedItems: string[]; others: AppraisalRow[] } | null,
): MyAppraisal {
  const { appraisal, round } = p;
  return {
    id: appraisal.id,
    round_id: round.id,
    slot: appraisal.slot as AppraisalSlot,
    version: appraisal.version,
    status: appraisal.submittedAt ? 'submitted' : 'waiting',
    assigned_at: appraisal.assignedAt.toISOString(),
    submitted_at: appraisal.submittedAt?.toISOString() ?? null,
    round_state: round.state as RoundState,
    dataset: datasetOf(p),
    reference: referenceOf(p),
    grades: appraisal.submittedAt ? (appraisal.grades ?? {}) : null,
    comments: appraisal.submittedAt ? (appraisal.comments ?? {}) : null,
    disputed_items: third?.disputedItems ?? [],
    others: (third?.others ?? []).map((o) => ({
      slot: o.slot as AppraisalSlot,
      grades: o.grades ?? {},
      comments: o.comments ?? {},
    })),
  };
}
