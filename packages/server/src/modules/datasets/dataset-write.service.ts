import type { Dataset, DatasetForm, DatasetInput, DatasetValues } from '@bvdb/contract';
import { estimateCviConfidenceInterval } from '@bvdb/domain';
import type { DbOrTx, Tx } from '../../db/client.js';
import type { Actor } from '../../lib/actor.js';
import { AppError, notFound } from '../../lib/app-error.js';
import type { DataScope } from '../../lib/response-cache.js';
import type { ServiceDeps } from '../../lib/service-deps.js';
import { writeTransaction } from '../../lib/write-transaction.js';
import { recordAudit } from '../audit/index.js';
import { columnsOfValues, storedValuesOf, type SpecColumns, type SpecRow } from './dataset-columns.js';
import * as repo from './dataset-write.repository.js';
import { presentDataset } from './datasets.presenter.js';
import { findVisibleDataset } from './datasets.repository.js';

const DATASET_WRITES: readonly DataScope[] = ['datasets'];

/**
 * The CI of the CVI from the study design when the paper gives none (Røraas et al. 2012), as the
 * seed does; null when the design does not allow one.
 */
function calculatedWithinCi(v: DatasetInput): { lower: number | null; upper: number | null } {
  const none = { lower: null, upper: null };
  const reported =
    v.reported_cvi_lower_confidence_interval !== null && v.reported_cvi_upper_confidence_interval !== null;
  const subjects = v.number_of_subjects_included_in_bv_estimation ?? v.number_of_subjects;
  const samples = v.average_number_of_samples_used_for_bv_estimation;
  if (reported || v.estimates_of_cvi === null || v.analytical_cv === null) return none;
  if (subjects === null || samples === null) return none;
  try {
    const ci = estimateCviConfidenceInterval({
      subjects,
      samplesPerSubject: samples,
      replicates: v.average_number_of_replicates ?? 1,
      cva: v.analytical_cv,
      cvi: v.estimates_of_cvi,
    });
    return ci ?? none;
  } catch {
    return none;
  }
}

/** Validated payload → stored columns, with the derived CI (computed here, never sent). */
function columnsOf(input: DatasetInput): SpecColumns {
  const within = calculatedWithinCi(input);
  return {
    ...columnsOfValues(input),
    calculatedWithinLower: within.lower,
    calculatedWithinUpper: within.upper,
  };
}

/** Stored row → the editable values (what the edit form loads and the audit trail keeps). */
const valuesOf = (row: SpecRow, diseaseIds: number[]): DatasetValues => ({
  ...storedValuesOf(row),
  disease_state_ids: diseaseIds,
});

const formOf = (row: SpecRow, diseaseIds: number[]): DatasetForm => ({
  id: row.id,
  version: row.version,
  updated_at: row.updatedAt.toISOString(),
  bv_specification: valuesOf(row, diseaseIds),
});

const snapshot = (row: SpecRow, diseaseIds: number[]) => ({ id: row.id, ...valuesOf(row, diseaseIds) });

/** PostgreSQL foreign_key_violation / check_violation, whichever driver (and wrapping) reports it. */
function sqlStateOf(err: unknown): string | undefined {
  for (let e: unknown = err; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (code === '23503' || code === '23514') return code;
  }
  return undefined;
}

const identifierKey = (referenceId: number, analyteId: number, uid: string) =>
  `${referenceId}|${analyteId}|${uid.trim().toLowerCase()}`;

/**
 * The rows whose Unique Identifier another dataset of the same reference and measurand already has
 * (stored, or an earlier row of the same upload): the rule of the form, checked for many at once.
 */
export async function identifierClashes(
  db: DbOrTx,
  rows: { row: number; input: Pick<DatasetInput, 'reference_id' | 'analyte_id' | 'unique_identifier'> }[],
): Promise<{ row: number; message: string }[]> {
  const stored = await repo.listIdentifiersOfReferences(db, [
    ...new Set(rows.map((r) => r.input.reference_id)),
  ]);
  const taken = new Map<string, string>(
    stored.map((d) => [identifierKey(d.referenceId, d.analyteId, d.uniqueIdentifier), `Dataset ${d.id}`]),
  );
  const out: { row: number; message: string }[] = [];
  for (const { row, input } of rows) {
    const key = identifierKey(input.reference_id, input.analyte_id, input.unique_identifier);
    const owner = taken.get(key);
    if (owner) {
      out.push({
        row,
        message: `${owner} of this reference and measurand already has the Unique Identifier "${input.unique_identifier}"; give this dataset its own.`,
      });
    } else {
      taken.set(key, `Row ${row}`);
    }
  }
  return out;
}

/**
 * What dataset creation needs of the appraisal workflow when the site appraises new datasets first
 * (decision 008). A port, given by whoever builds the service (app.ts gives the appraisals module's
 * service): the appraisals module imports datasets, so datasets may not import it back (no module
 * cycles, decision 048).
 */
export interface NewDatasetAppraisal {
  /** Opens a round for the new dataset inside its transaction. */
  openInTransaction(tx: Tx, datasetId: number, userId: number): Promise<{ id: number }>;
  /** After the commit: tells curators the round waits for assessors. */
  notifyCuratorsOfUnassigned(roundId: number): Promise<void>;
}

/**
 * Create, edit and delete datasets: one transaction each with the audit entry and the cache bump.
 * Every write that touches a dataset asks for the recompute of its measurand's meta-analyses through
 * the door (`deps.recompute.request`, decision 048), in the same transaction; the worker does it.
 */
export class DatasetWriteService {
  constructor(
    private readonly deps: ServiceDeps,
    /** Null where datasets are never entered "in appraisal" (bulk uploads enter final). */
    private readonly appraisals: NewDatasetAppraisal | null,
  ) {}

  async form(id: number): Promise<DatasetForm> {
    const { db } = this.deps;
    const row = await repo.findDatasetRow(db, id);
    if (!row) throw notFound(`Dataset ${id}`);
    return formOf(row, await repo.diseaseIdsOf(db, id));
  }

  async create(input: DatasetInput, actor: Actor): Promise<Dataset> {
    // The site may ask for new datasets to be appraised first (decision 008): their form grades
    // are provisional and they stay out of meta-analyses until a round makes grades final.
    const appraise = this.deps.config.APPRAISE_NEW_DATASETS;
    const { appraisals } = this;
    if (appraise && !appraisals) throw new Error('Datasets entered in appraisal need the appraisal workflow');
    const userId = actor.id;
    const { row, roundId } = await this.write(async (tx) => {
      await this.assertKnownIds(tx, input);
      await this.assertOwnIdentifier(tx, input);
      const row = await repo.insertDataset(tx, {
        ...columnsOf(input),
        ...(appraise ? { gradesFinal: false } : {}),
      });
      await repo.replaceDiseaseStates(tx, row.id, input.disease_state_ids);
      await recordAudit(tx, {
        userId,
        entity: 'bv_specification',
        entityId: row.id,
        action: 'create',
        after: snapshot(row, input.disease_state_ids),
      });
      const round = appraise ? await appraisals!.openInTransaction(tx, row.id, userId) : null;
      await this.requestRecompute(tx, [row.analyteId], actor, row.id);
      return { row, roundId: round?.id ?? null };
    });
    if (roundId !== null) await appraisals!.notifyCuratorsOfUnassigned(roundId);
    return this.present(row.id);
  }

  async update(id: number, input: DatasetInput, version: number, actor: Actor): Promise<Dataset> {
    const userId = actor.id;
    await this.write(async (tx) => {
      const before = await repo.lockDataset(tx, id);
      if (!before) throw notFound(`Dataset ${id}`);
      const beforeDiseases = await repo.diseaseIdsOf(tx, id);
      if (before.version !== version) {
        throw new AppError(
          'conflict',
          'Someone else saved this dataset after you opened it; your changes were not saved.',
          { current: formOf(before, beforeDiseases) },
        );
      }
      await this.assertKnownIds(tx, input);
      await this.assertOwnIdentifier(tx, input, id);
      const after = await repo.updateDatasetRow(tx, id, {
        ...columnsOf(input),
        version: before.version + 1,
        updatedAt: new Date(),
      });
      await repo.replaceDiseaseStates(tx, id, input.disease_state_ids);
      await recordAudit(tx, {
        userId,
        entity: 'bv_specification',
        entityId: id,
        action: 'update',
        before: snapshot(before, beforeDiseases),
        after: snapshot(after, input.disease_state_ids),
      });
      await this.requestRecompute(tx, [before.analyteId, after.analyteId], actor, id);
    });
    return this.present(id);
  }

  async remove(id: number, version: number, actor: Actor): Promise<void> {
    const userId = actor.id;
    await this.write(async (tx) => {
      const before = await repo.lockDataset(tx, id);
      if (!before) throw notFound(`Dataset ${id}`);
      const diseases = await repo.diseaseIdsOf(tx, id);
      if (before.version !== version) {
        throw new AppError(
          'conflict',
          'Someone else saved this dataset after you opened it; it was not deleted. Look at the current values first.',
          { current: formOf(before, diseases) },
        );
      }
      await repo.deleteDatasetRow(tx, id);
      await recordAudit(tx, {
        userId,
        entity: 'bv_specification',
        entityId: id,
        action: 'delete',
        before: snapshot(before, diseases),
      });
      await this.requestRecompute(tx, [before.analyteId], actor, id);
    });
  }

  /**
   * Creates many datasets (a bulk upload, its rows already checked with the form's schema and their
   * names resolved to existing ids) in one transaction: each with its disease states and audit
   * entry, then one recompute request per measurand touched. All or none: a Unique Identifier
   * taken meanwhile is a 422 naming the row.
   */
  async createMany(
    rows: { row: number; input: DatasetInput }[],
    actor: Actor,
  ): Promise<{ created: { row: number; id: number; unique_identifier: string }[]; measurands: number[] }> {
    const userId = actor.id;
    return this.write(async (tx) => {
      const clashes = await identifierClashes(tx, rows);
      if (clashes.length > 0) {
        throw new AppError('unprocessable', `${clashes[0]!.message} Nothing was saved.`, {
          fields: clashes.map((c) => ({ path: `row ${c.row}.unique_identifier`, message: c.message })),
        });
      }
      const created: { row: number; id: number; unique_identifier: string }[] = [];
      for (const { row, input } of rows) {
        const stored = await repo.insertDataset(tx, columnsOf(input));
        await repo.replaceDiseaseStates(tx, stored.id, input.disease_state_ids);
        await recordAudit(tx, {
          userId,
          entity: 'bv_specification',
          entityId: stored.id,
          action: 'create',
          after: snapshot(stored, input.disease_state_ids),
        });
        created.push({ row, id: stored.id, unique_identifier: stored.uniqueIdentifier });
      }
      const measurands = [...new Set(rows.map((r) => r.input.analyte_id))].sort((a, b) => a - b);
      // An upload is an import of datasets: one cause for the lot (no single dataset names it).
      await this.deps.recompute.request(tx, {
        analyteIds: measurands,
        cause: { kind: 'import', role: actor.role },
      });
      return { created, measurands };
    });
  }

  /**
   * One write transaction; a constraint the checks above missed is still a 422, never a 500. It
   * changes datasets only (their rows, disease states, audit entries, appraisal rounds, recompute
   * requests): answers that read no dataset — a measurand's record, the lookups, the references —
   * stay kept (decision 057). The recompute it asks for is its own write, which moves the results.
   */
  private async write<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    try {
      return await writeTransaction(this.deps, work, DATASET_WRITES);
    } catch (err) {
      const state = sqlStateOf(err);
      if (state === '23503') {
        throw new AppError(
          'unprocessable',
          'A chosen value no longer exists; reload the form and try again.',
        );
      }
      if (state === '23514') {
        throw new AppError('unprocessable', 'A value is outside what the database accepts.');
      }
      throw err;
    }
  }

  private async assertKnownIds(tx: Tx, input: DatasetInput): Promise<void> {
    const unknown = await repo.findUnknownIds(tx, input);
    if (unknown.length === 0) return;
    throw new AppError('unprocessable', unknown.map((u) => u.message).join(' '), {
      fields: unknown.map((u) => ({ path: `body.bv_specification.${u.field}`, message: u.message })),
    });
  }

  /**
   * A dataset is known by its reference, measurand and Unique Identifier: a second dataset (a copy
   * saved unchanged, typically) may not share all three, or the two cannot be told apart.
   */
  private async assertOwnIdentifier(tx: Tx, input: DatasetInput, exceptId?: number): Promise<void> {
    const same = await repo.findSameIdentifier(tx, {
      referenceId: input.reference_id,
      analyteId: input.analyte_id,
      uniqueIdentifier: input.unique_identifier,
      exceptId,
    });
    if (!same) return;
    const message = `Dataset ${same.id} of this reference and measurand already has the Unique Identifier "${input.unique_identifier}"; give this dataset its own.`;
    throw new AppError('unprocessable', message, {
      fields: [{ path: 'body.bv_specification.unique_identifier', message }],
    });
  }

  /** Through the door, in the write's transaction (decision 048): the worker wakes after the commit. */
  private async requestRecompute(tx: Tx, analyteIds: number[], actor: Actor, datasetId: number) {
    await this.deps.recompute.request(tx, {
      analyteIds: [...new Set(analyteIds)],
      cause: { kind: 'dataset', datasetId, role: actor.role },
    });
  }

  private async present(id: number): Promise<Dataset> {
    const row = await findVisibleDataset(this.deps.db, id, true);
    if (!row) throw notFound(`Dataset ${id}`);
    return presentDataset(row);
  }
}
