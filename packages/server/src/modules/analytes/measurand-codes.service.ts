import type { MeasurandCode, MeasurandCodes, UpdateMeasurandCodesBody } from '@bvdb/contract';
import { codeProblem, codeSystemOf, parseCodeToken, type CodeSystem } from '@bvdb/domain';
import type { DbOrTx } from '../../db/client.js';
import { AppError, notFound } from '../../lib/app-error.js';
import type { ServiceDeps } from '../../lib/service-deps.js';
import { isUniqueViolation, writeTransaction } from '../../lib/write-transaction.js';
import { recordAudit } from '../audit/index.js';
import * as repo from './measurand-codes.repository.js';
import { bumpAnalyteVersion, findAnalyteVersion, lockAnalyteVersion } from './measurand-names.repository.js';

const present = (r: repo.CodeRow): MeasurandCode => ({
  system: r.system,
  code: r.code,
  display: r.display,
  matrix_id: r.matrixId,
  matrix: r.matrix,
  ucum_unit: r.ucumUnit,
  source: r.source,
});

/** Measurands' codes by measurand id (every measurand without `ids`): the v1 answers and the menu. */
export async function codesByMeasurand(db: DbOrTx, ids?: number[]): Promise<Map<number, MeasurandCode[]>> {
  const out = new Map<number, MeasurandCode[]>();
  for (const r of await repo.listCodesByAnalyte(db, ids))
    out.set(r.analyteId, [...(out.get(r.analyteId) ?? []), present(r)]);
  return out;
}

export async function getMeasurandCodes(db: DbOrTx, id: number): Promise<MeasurandCodes> {
  const row = await findAnalyteVersion(db, id);
  if (!row) throw notFound(`Measurand ${id}`);
  return { measurand_id: id, version: row.version, codes: (await codesByMeasurand(db, [id])).get(id) ?? [] };
}

/**
 * The measurand a code names (issue 45.3): `system|code`, or the code alone in any system; 400 for
 * a system bvdb does not know, 404 when no measurand has the code, 409 when a code alone is in two
 * systems for two measurands.
 */
export async function resolveCode(
  db: DbOrTx,
  token: string,
  system?: CodeSystem,
): Promise<MeasurandCode & { measurand_id: number }> {
  const parsed = system ? { system, code: token.trim() } : parseCodeToken(token);
  if (!system && 'systemWritten' in parsed && parsed.systemWritten !== undefined && !parsed.system)
    throw new AppError(
      'bad_request',
      `"${parsed.systemWritten}" is not a code system bvdb knows: use http://loinc.org, http://npu-terminology.org or http://snomed.info/sct (or LOINC, NPU, SNOMED CT)`,
      { fields: [{ path: 'query.code', message: 'Unknown code system' }] },
    );
  const found = await repo.findCodes(db, parsed.code, parsed.system);
  const measurands = new Set(found.map((f) => f.analyteId));
  if (measurands.size === 0)
    throw new AppError(
      'not_found',
      `No measurand has the code ${parsed.system ? `${parsed.system}|` : ''}${parsed.code}`,
    );
  if (measurands.size > 1)
    throw new AppError(
      'conflict',
      `The code ${parsed.code} names measurands in more than one system: say which, as system|code`,
    );
  return { measurand_id: found[0]!.analyteId, ...present(found[0]!) };
}

/** Each code of the list checked: a known system, its form, no code twice, known matrices. */
async function checkCodes(db: DbOrTx, body: UpdateMeasurandCodesBody) {
  const seen = new Set<string>();
  const codes = body.codes.map((c, i) => {
    const path = `body.codes.${i}`;
    const system = codeSystemOf(c.system);
    if (!system)
      throw new AppError('bad_request', `"${c.system}" is not a code system bvdb knows`, {
        fields: [{ path: `${path}.system`, message: 'Use LOINC, NPU or SNOMED CT (or its URI)' }],
      });
    const problem = codeProblem(system, c.code);
    if (problem)
      throw new AppError('bad_request', problem, { fields: [{ path: `${path}.code`, message: problem }] });
    const key = `${system}|${c.code}`;
    if (seen.has(key))
      throw new AppError('bad_request', `${key} is in the list twice: keep one`, {
        fields: [{ path: `${path}.code`, message: 'Twice in the list' }],
      });
    seen.add(key);
    return {
      system,
      code: c.code,
      display: c.display,
      matrixId: c.matrix_id,
      ucumUnit: c.ucum_unit,
      source: c.source,
    };
  });
  const matrixIds = [...new Set(codes.flatMap((c) => (c.matrixId === null ? [] : [c.matrixId])))];
  const known = await repo.existingMatrixIds(db, matrixIds);
  const unknown = matrixIds.find((m) => !known.has(m));
  if (unknown !== undefined)
    throw new AppError('bad_request', `Matrix ${unknown} does not exist`, {
      fields: [{ path: 'body.codes', message: `Matrix ${unknown} does not exist` }],
    });
  return codes;
}

/**
 * Replaces a measurand's codes (curators and administrators, decision 091): the version the
 * curator saw, each code of its system's form, none another measurand's.
 */
export async function updateMeasurandCodes(
  deps: Pick<ServiceDeps, 'db' | 'cache'>,
  id: number,
  body: UpdateMeasurandCodesBody,
  userId: number,
): Promise<MeasurandCodes> {
  const codes = await checkCodes(deps.db, body);
  try {
    return await writeTransaction(deps, async (tx) => {
      const row = await lockAnalyteVersion(tx, id);
      if (!row) throw notFound(`Measurand ${id}`);
      const before = (await codesByMeasurand(tx, [id])).get(id) ?? [];
      if (row.version !== body.version) {
        throw new AppError(
          'conflict',
          'Someone else changed this measurand after you opened it; your codes were not saved. Reload to see theirs.',
          { current: { measurand_id: id, version: row.version, codes: before } },
        );
      }
      const taken = (await repo.findCodesTakenByOthers(tx, id, codes)).find((t) =>
        codes.some((c) => c.system === t.system && c.code === t.code),
      );
      if (taken)
        throw new AppError(
          'conflict',
          `${taken.system}|${taken.code} is already a code of another measurand: ${taken.displayName} (id ${taken.analyteId}). A code names one measurand; remove it there first.`,
          { fields: [{ path: 'body.codes', message: `${taken.code} belongs to ${taken.displayName}` }] },
        );
      await repo.replaceCodes(tx, id, codes);
      const version = await bumpAnalyteVersion(tx, id);
      await recordAudit(tx, {
        userId,
        entity: 'measurand',
        entityId: id,
        action: 'update',
        before: { codes: before.map((c) => `${c.system}|${c.code}`) },
        after: { codes: codes.map((c) => `${c.system}|${c.code}`) },
      });
      return { measurand_id: id, version, codes: (await codesByMeasurand(tx, [id])).get(id) ?? [] };
    });
  } catch (err) {
    if (isUniqueViolation(err))
      throw new AppError(
        'conflict',
        'One of these codes was just given to another measurand; reload and try again',
      );
    throw err;
  }
}
