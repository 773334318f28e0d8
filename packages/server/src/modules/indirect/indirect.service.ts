import {
  INDIRECT_METHOD_NAMES,
  type CreateLocalEstimateBody,
  type IndirectQuery,
  type IndirectResponse,
  type LocalEstimate,
  type LocalEstimates,
  type UpdateLocalEstimateBody,
} from '@bvdb/contract';
import {
  DEFAULT_INDIRECT_OPTIONS,
  normalQuantile,
  rcvAsymmetric,
  type IndirectMethod,
  type IndirectOptions,
} from '@bvdb/domain';
import type { DbOrTx } from '../../db/client.js';
import { AppError, notFound } from '../../lib/app-error.js';
import type { ServiceDeps } from '../../lib/service-deps.js';
import { createUploadTaskPool } from '../../lib/upload-task-pool.js';
import { NO_PUBLIC_DATA, writeTransaction } from '../../lib/write-transaction.js';
import { findAnalyte, resolveCode } from '../analytes/index.js';
import { recordAudit } from '../audit/index.js';
import { findMatrix } from '../lookups/index.js';
import { headlineOf, listDisplayedMetasOf } from '../meta-analysis/index.js';
import type { ExtractMapping } from './extract-input.js';
import type { IndirectRun, IndirectTask } from './indirect-run.js';
import { presentLocalEstimate } from './indirect.presenter.js';
import * as repo from './local-estimates.repository.js';

/**
 * The threads of the indirect estimate (decision 095): reading a file of up to 1,000,000 rows and
 * the methods' bootstraps never run on the event loop; one client runs one at a time
 * (plugins/computation-gate.ts); the time and heap limits end a thread that goes past them.
 */
export const createIndirectPool = (timeoutMs: number) =>
  createUploadTaskPool<IndirectTask, IndirectRun>({
    from: import.meta.url,
    file: './indirect.thread.js',
    timeoutMs,
    heapMb: 1536,
    work: 'The estimate',
    tooLongHint: 'send a shorter period or fewer methods',
    tooLarge: 'The file',
    busy: 'The indirect estimate is busy; try again in a few seconds.',
  });
export type IndirectPool = ReturnType<typeof createIndirectPool>;

/** The options of a run, from the query string, on the domain's defaults (1–30 days, all pairs, 0.95). */
export function optionsFromQuery(q: IndirectQuery): IndirectOptions {
  const minDays = q.min_days ?? DEFAULT_INDIRECT_OPTIONS.minDays;
  const maxDays = q.max_days ?? DEFAULT_INDIRECT_OPTIONS.maxDays;
  if (minDays > maxDays) {
    throw new AppError('bad_request', `min_days (${minDays}) must not be more than max_days (${maxDays})`, {
      fields: [{ path: 'query.min_days', message: 'more than max_days' }],
    });
  }
  if ((q.first_low === undefined) !== (q.first_high === undefined)) {
    throw new AppError('bad_request', 'Give both first_low and first_high, or neither');
  }
  if (q.first_low !== undefined && q.first_high !== undefined && !(q.first_low < q.first_high)) {
    throw new AppError('bad_request', 'first_low must be below first_high');
  }
  let methods: readonly IndirectMethod[] = DEFAULT_INDIRECT_OPTIONS.methods;
  if (q.methods !== undefined && q.methods.trim() !== '') {
    const asked = [
      ...new Set(
        q.methods
          .split(',')
          .map((m) => m.trim())
          .filter(Boolean),
      ),
    ];
    const unknown = asked.filter((m) => !(INDIRECT_METHOD_NAMES as readonly string[]).includes(m));
    if (unknown.length > 0) {
      throw new AppError(
        'bad_request',
        `Unknown method${unknown.length === 1 ? '' : 's'} ${unknown.map((m) => `"${m}"`).join(', ')}: choose from ${INDIRECT_METHOD_NAMES.join(', ')}`,
        { fields: [{ path: 'query.methods', message: 'unknown method' }] },
      );
    }
    methods = INDIRECT_METHOD_NAMES.filter((m) => asked.includes(m));
  }
  return {
    ...DEFAULT_INDIRECT_OPTIONS,
    minDays,
    maxDays,
    pairsPerPatient: q.pairs ?? DEFAULT_INDIRECT_OPTIONS.pairsPerPatient,
    methods,
    probability: q.probability ?? DEFAULT_INDIRECT_OPTIONS.probability,
    ...(q.first_low !== undefined && q.first_high !== undefined
      ? { firstResultRange: { low: q.first_low, high: q.first_high } }
      : {}),
    ...(q.cva !== undefined ? { cva: q.cva } : {}),
    ...(q.bootstrap !== undefined ? { bootstrap: q.bootstrap } : {}),
    ...(q.seed !== undefined ? { seed: q.seed } : {}),
  };
}

export function mappingFromQuery(q: IndirectQuery): ExtractMapping {
  const m: ExtractMapping = {};
  if (q.patient_column) m.patient = q.patient_column;
  if (q.time_column) m.time = q.time_column;
  if (q.value_column) m.value = q.value_column;
  if (q.unit_column) m.unit = q.unit_column;
  if (q.sex_column) m.sex = q.sex_column;
  if (q.age_column) m.age = q.age_column;
  if (q.setting_column) m.setting = q.setting_column;
  return m;
}

export interface Measurand {
  id: number;
  name: string;
  /** The matrix the code names, when it names one (a LOINC code is of serum or of urine). */
  matrixId: number | null;
}

/** The measurand by id or by code (as the RCV tool finds it); 404 for an unknown one. */
export async function resolveMeasurand(db: DbOrTx, token: string): Promise<Measurand> {
  if (/^\d+$/.test(token)) {
    const row = Number(token) <= 2_147_483_647 ? await findAnalyte(db, Number(token)) : undefined;
    if (!row) throw notFound(`Measurand ${token}`);
    return { id: row.id, name: row.displayName, matrixId: null };
  }
  const code = await resolveCode(db, token);
  const row = await findAnalyte(db, code.measurand_id);
  if (!row) throw notFound(`Measurand ${code.measurand_id}`);
  return { id: row.id, name: row.displayName, matrixId: code.matrix_id };
}

/**
 * bvdb's CVI of the measurand, as its page shows it: of the matrix asked for (none when it has no
 * CVI there), else of the matrix its code names when it has one there, else its headline matrix.
 */
export async function publishedCvi(
  deps: Pick<ServiceDeps, 'db'>,
  measurandId: number,
  matrix: { asked: number | null; ofCode: number | null },
): Promise<IndirectResponse['published']> {
  const rows = (await listDisplayedMetasOf(deps, [measurandId])).filter((r) => r.meta.median !== null);
  const ofMatrix = (id: number) => rows.find((r) => r.meta.varType === ':cvi' && r.meta.matrixId === id);
  const row =
    matrix.asked !== null
      ? ofMatrix(matrix.asked)
      : ((matrix.ofCode !== null ? ofMatrix(matrix.ofCode) : undefined) ?? headlineOf(rows)?.cvi);
  if (!row || row.meta.median === null) return null;
  return {
    matrix: row.matrixName ?? row.consolidationName ?? 'all matrices',
    matrix_id: row.meta.matrixId,
    median: row.meta.median,
    lower: row.meta.lower,
    upper: row.meta.upper,
    number_used: row.meta.numberUsed,
  };
}

/** The local CVI of each method beside the published one: their ratio, inside or not, the RCV with each. */
export function compareWithPublished(
  run: IndirectRun,
  published: IndirectResponse['published'],
  options: IndirectOptions,
): IndirectResponse['comparison'] {
  if (!published) return [];
  const z = normalQuantile(1 - (1 - options.probability) / 2);
  const rcvPublished =
    options.cva !== undefined
      ? (() => {
          const r = rcvAsymmetric(published.median, options.cva, z);
          return { up: r.up, down: Math.abs(r.down) };
        })()
      : null;
  return run.all.methods.map((m) => ({
    method: m.method,
    local_cvi: m.cvi,
    ratio: m.cvi !== null && published.median > 0 ? m.cvi / published.median : null,
    inside:
      m.cvi !== null && published.lower !== null && published.upper !== null
        ? m.cvi >= published.lower && m.cvi <= published.upper
        : null,
    rcv_local: m.rcv_formula,
    rcv_published: rcvPublished,
  }));
}

export function optionsAnswer(o: IndirectOptions): IndirectResponse['options'] {
  return {
    min_days: o.minDays,
    max_days: o.maxDays,
    pairs: o.pairsPerPatient,
    first_result_range: o.firstResultRange ? { ...o.firstResultRange } : null,
    methods: [...o.methods],
    cva: o.cva ?? null,
    probability: o.probability,
    bootstrap: o.bootstrap,
    seed: o.seed,
  };
}

/** A measurand's local estimates, newest first (404 for an unknown measurand). */
export async function listLocalEstimates(db: DbOrTx, measurandId: number): Promise<LocalEstimates> {
  if (!(await findAnalyte(db, measurandId))) throw notFound(`Measurand ${measurandId}`);
  const rows = await repo.listLocalEstimatesOf(db, measurandId);
  return { measurand_id: measurandId, items: rows.map(presentLocalEstimate) };
}

/**
 * Keeps a run's summary as a local estimate (curators): numbers and options, never a row; the audit
 * entry in the same transaction (decision 100). No public answer is kept with it: the measurand page
 * reads the list after hydration, uncached (decision 095).
 */
export async function createLocalEstimate(
  deps: Pick<ServiceDeps, 'db' | 'cache'>,
  measurandId: number,
  body: CreateLocalEstimateBody,
  userId: number,
): Promise<LocalEstimate> {
  if (!(await findAnalyte(deps.db, measurandId))) throw notFound(`Measurand ${measurandId}`);
  if (body.matrix_id != null && !(await findMatrix(deps.db, body.matrix_id))) {
    throw new AppError('bad_request', `No matrix ${body.matrix_id}`, {
      fields: [{ path: 'body.matrix_id', message: 'unknown matrix' }],
    });
  }
  if (body.min_days > body.max_days) {
    throw new AppError('bad_request', 'min_days must not be more than max_days');
  }
  if ((body.cvi_lower === null) !== (body.cvi_upper === null)) {
    throw new AppError('bad_request', 'Give both cvi_lower and cvi_upper, or neither');
  }
  if (body.cvi_lower !== null && body.cvi_upper !== null && body.cvi_lower > body.cvi_upper) {
    throw new AppError('bad_request', 'cvi_lower must not be above cvi_upper');
  }
  return writeTransaction(
    deps,
    async (tx) => {
      const row = await repo.insertLocalEstimate(tx, {
        analyteId: measurandId,
        matrixId: body.matrix_id ?? null,
        laboratory: body.laboratory,
        method: body.method,
        cvTotal: body.cv_total,
        cva: body.cva,
        cvi: body.cvi,
        cviLower: body.cvi_lower,
        cviUpper: body.cvi_upper,
        pairs: body.pairs,
        patients: body.patients,
        results: body.results,
        minDays: body.min_days,
        maxDays: body.max_days,
        pairsPerPatient: body.pairs_per_patient,
        period: body.period ?? null,
        note: body.note ?? null,
        createdBy: userId,
      });
      const saved = presentLocalEstimate(row);
      await recordAudit(tx, {
        userId,
        entity: 'local_estimate',
        entityId: saved.id,
        action: 'create',
        after: saved,
      });
      return saved;
    },
    NO_PUBLIC_DATA,
  );
}

/** 404, or 409 with the row as it is now when the curator saw another version. */
async function lockSeen(tx: DbOrTx, id: number, version: number, what: string) {
  const row = await repo.lockLocalEstimate(tx, id);
  if (!row) throw notFound(`Local estimate ${id}`);
  if (row.estimate.version !== version) {
    throw new AppError(
      'conflict',
      `Someone else changed this local estimate after you opened it; ${what}. Reload to see theirs.`,
      { current: presentLocalEstimate(row) },
    );
  }
  return row;
}

/** A curator's edit of the labels (laboratory, period, note); the numbers of the run stay as saved. */
export async function updateLocalEstimate(
  deps: Pick<ServiceDeps, 'db' | 'cache'>,
  id: number,
  body: UpdateLocalEstimateBody,
  userId: number,
): Promise<LocalEstimate> {
  return writeTransaction(
    deps,
    async (tx) => {
      const before = presentLocalEstimate(await lockSeen(tx, id, body.version, 'your edit was not saved'));
      const labels: repo.LocalEstimateLabels = {};
      if (body.laboratory !== undefined) labels.laboratory = body.laboratory;
      if (body.period !== undefined) labels.period = body.period || null;
      if (body.note !== undefined) labels.note = body.note || null;
      const after = presentLocalEstimate(await repo.updateLocalEstimate(tx, id, labels));
      await recordAudit(tx, {
        userId,
        entity: 'local_estimate',
        entityId: id,
        action: 'update',
        before,
        after,
      });
      return after;
    },
    NO_PUBLIC_DATA,
  );
}

/** A curator's delete, of the version they saw; the audit entry keeps what was deleted. */
export async function deleteLocalEstimate(
  deps: Pick<ServiceDeps, 'db' | 'cache'>,
  id: number,
  version: number,
  userId: number,
): Promise<void> {
  await writeTransaction(
    deps,
    async (tx) => {
      const before = presentLocalEstimate(await lockSeen(tx, id, version, 'it was not deleted'));
      await repo.deleteLocalEstimate(tx, id);
      await recordAudit(tx, { userId, entity: 'local_estimate', entityId: id, action: 'delete', before });
    },
    NO_PUBLIC_DATA,
  );
}
