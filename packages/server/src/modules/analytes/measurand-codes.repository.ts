import { and, asc, eq, inArray, ne } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { analytes, matrices, measurandCodes } from '../../db/schema.js';

const codeColumns = {
  analyteId: measurandCodes.analyteId,
  system: measurandCodes.system,
  code: measurandCodes.code,
  display: measurandCodes.display,
  matrixId: measurandCodes.matrixId,
  matrix: matrices.matrixExpansion,
  ucumUnit: measurandCodes.ucumUnit,
  source: measurandCodes.source,
};

export type CodeRow = Awaited<ReturnType<typeof listCodesByAnalyte>>[number];

/** The codes of these measurands (every measurand without `ids`), in the order they were written. */
export function listCodesByAnalyte(db: DbOrTx, ids?: number[]) {
  if (ids && ids.length === 0) return Promise.resolve([]);
  return db
    .select(codeColumns)
    .from(measurandCodes)
    .leftJoin(matrices, eq(matrices.id, measurandCodes.matrixId))
    .where(ids ? inArray(measurandCodes.analyteId, ids) : undefined)
    .orderBy(asc(measurandCodes.analyteId), asc(measurandCodes.id));
}

/** The codes equal to `code` (in `system`, or in any system when none is given). */
export function findCodes(db: DbOrTx, code: string, system?: string) {
  return db
    .select(codeColumns)
    .from(measurandCodes)
    .leftJoin(matrices, eq(matrices.id, measurandCodes.matrixId))
    .where(and(eq(measurandCodes.code, code), system ? eq(measurandCodes.system, system) : undefined))
    .orderBy(asc(measurandCodes.id));
}

/** The codes of the list that another measurand has already. */
export function findCodesTakenByOthers(
  db: DbOrTx,
  analyteId: number,
  codes: { system: string; code: string }[],
) {
  if (codes.length === 0) return Promise.resolve([]);
  return db
    .select({
      system: measurandCodes.system,
      code: measurandCodes.code,
      analyteId: measurandCodes.analyteId,
      displayName: analytes.displayName,
    })
    .from(measurandCodes)
    .innerJoin(analytes, eq(analytes.id, measurandCodes.analyteId))
    .where(
      and(
        inArray(
          measurandCodes.code,
          codes.map((c) => c.code),
        ),
        ne(measurandCodes.analyteId, analyteId),
      ),
    );
}

/** The ids of these matrices that exist. */
export async function existingMatrixIds(db: DbOrTx, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db.select({ id: matrices.id }).from(matrices).where(inArray(matrices.id, ids));
  return new Set(rows.map((r) => r.id));
}

/** The measurand's codes replaced (its version is moved on by the caller). */
export async function replaceCodes(
  db: DbOrTx,
  analyteId: number,
  codes: {
    system: string;
    code: string;
    display: string | null;
    matrixId: number | null;
    ucumUnit: string | null;
    source: string | null;
  }[],
): Promise<void> {
  await db.delete(measurandCodes).where(eq(measurandCodes.analyteId, analyteId));
  if (codes.length > 0) await db.insert(measurandCodes).values(codes.map((c) => ({ analyteId, ...c })));
}

/** Every code with its measurand's and matrix's names, by measurand name, system and code: the crosswalk. */
export function listCrosswalkRows(db: DbOrTx) {
  return db
    .select({
      system: measurandCodes.system,
      code: measurandCodes.code,
      display: measurandCodes.display,
      measurand: analytes.displayName,
      matrix: matrices.matrixExpansion,
      ucumUnit: measurandCodes.ucumUnit,
      source: measurandCodes.source,
    })
    .from(measurandCodes)
    .innerJoin(analytes, eq(analytes.id, measurandCodes.analyteId))
    .leftJoin(matrices, eq(matrices.id, measurandCodes.matrixId))
    .orderBy(asc(analytes.displayName), asc(measurandCodes.system), asc(measurandCodes.code));
}

/** Every code as stored (an import compares a file with them). */
export function listStoredCodes(db: DbOrTx) {
  return db
    .select({
      id: measurandCodes.id,
      analyteId: measurandCodes.analyteId,
      system: measurandCodes.system,
      code: measurandCodes.code,
      display: measurandCodes.display,
      matrixId: measurandCodes.matrixId,
      ucumUnit: measurandCodes.ucumUnit,
      source: measurandCodes.source,
    })
    .from(measurandCodes)
    .orderBy(asc(measurandCodes.id));
}

/** Every measurand's id and name, and every matrix's: a crosswalk names them. */
export async function listNamedThings(db: DbOrTx) {
  const [measurands, matrixRows] = await Promise.all([
    db.select({ id: analytes.id, name: analytes.displayName }).from(analytes),
    db.select({ id: matrices.id, name: matrices.matrixExpansion }).from(matrices),
  ]);
  return { measurands, matrices: matrixRows };
}

export interface CodeValues {
  system: string;
  code: string;
  display: string | null;
  matrixId: number | null;
  ucumUnit: string | null;
  source: string | null;
}

/** A code added to a measurand. */
export async function insertCode(db: DbOrTx, analyteId: number, code: CodeValues): Promise<void> {
  await db.insert(measurandCodes).values({ analyteId, ...code });
}

/** A stored code's display, matrix, unit and source replaced. */
export async function updateCode(db: DbOrTx, id: number, code: CodeValues): Promise<void> {
  await db
    .update(measurandCodes)
    .set({ display: code.display, matrixId: code.matrixId, ucumUnit: code.ucumUnit, source: code.source })
    .where(eq(measurandCodes.id, id));
}
