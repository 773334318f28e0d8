import { datasetFieldsOfKind, type DatasetFieldOfKind, type DatasetInput } from '@bvdb/contract';
import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client.js';
import {
  analyticalPrincipleMethods,
  analytes,
  bvSpecificationDiseaseStates,
  bvSpecifications,
  diseaseStates,
  ethnicities,
  matrices,
  references,
  statesOfWellBeing,
  units,
} from '../../db/schema.js';
import type { SpecColumns, SpecRow } from './dataset-columns.js';

/** The row of one dataset, locked for the rest of the transaction (edits and deletes). */
export async function lockDataset(tx: DbOrTx, id: number): Promise<SpecRow | undefined> {
  const [row] = await tx.select().from(bvSpecifications).where(eq(bvSpecifications.id, id)).for('update');
  return row;
}

export async function findDatasetRow(db: DbOrTx, id: number): Promise<SpecRow | undefined> {
  const [row] = await db.select().from(bvSpecifications).where(eq(bvSpecifications.id, id));
  return row;
}

export async function diseaseIdsOf(db: DbOrTx, id: number): Promise<number[]> {
  const rows = await db
    .select({ id: bvSpecificationDiseaseStates.diseaseStateId })
    .from(bvSpecificationDiseaseStates)
    .where(eq(bvSpecificationDiseaseStates.bvSpecificationId, id))
    .orderBy(asc(bvSpecificationDiseaseStates.diseaseStateId));
  return rows.map((r) => r.id);
}

/**
 * Another dataset of the same reference and measurand with this Unique Identifier (trimmed,
 * case-insensitive), if any; `exceptId` is the dataset being edited.
 */
export async function findSameIdentifier(
  db: DbOrTx,
  key: { referenceId: number; analyteId: number; uniqueIdentifier: string; exceptId?: number },
): Promise<{ id: number } | undefined> {
  const [row] = await db
    .select({ id: bvSpecifications.id })
    .from(bvSpecifications)
    .where(
      and(
        eq(bvSpecifications.referenceId, key.referenceId),
        eq(bvSpecifications.analyteId, key.analyteId),
        sql`lower(trim(${bvSpecifications.uniqueIdentifier})) = lower(trim(${key.uniqueIdentifier}))`,
        key.exceptId === undefined ? undefined : ne(bvSpecifications.id, key.exceptId),
      ),
    )
    .limit(1);
  return row;
}

/** The reference, measurand and Unique Identifier of every dataset of these references (bulk checks). */
export async function listIdentifiersOfReferences(db: DbOrTx, referenceIds: number[]) {
  if (referenceIds.length === 0) return [];
  return db
    .select({
      id: bvSpecifications.id,
      referenceId: bvSpecifications.referenceId,
      analyteId: bvSpecifications.analyteId,
      uniqueIdentifier: bvSpecifications.uniqueIdentifier,
    })
    .from(bvSpecifications)
    .where(inArray(bvSpecifications.referenceId, referenceIds));
}

export async function insertDataset(tx: DbOrTx, values: SpecColumns): Promise<SpecRow> {
  const [row] = await tx.insert(bvSpecifications).values(values).returning();
  return row!;
}

export async function updateDatasetRow(tx: DbOrTx, id: number, values: Partial<SpecColumns>) {
  const [row] = await tx.update(bvSpecifications).set(values).where(eq(bvSpecifications.id, id)).returning();
  return row!;
}

export async function deleteDatasetRow(tx: DbOrTx, id: number): Promise<void> {
  await tx.delete(bvSpecifications).where(eq(bvSpecifications.id, id));
}

export async function replaceDiseaseStates(tx: DbOrTx, id: number, diseaseIds: number[]): Promise<void> {
  await tx.delete(bvSpecificationDiseaseStates).where(eq(bvSpecificationDiseaseStates.bvSpecificationId, id));
  if (diseaseIds.length > 0) {
    await tx
      .insert(bvSpecificationDiseaseStates)
      .values(diseaseIds.map((diseaseStateId) => ({ bvSpecificationId: id, diseaseStateId })));
  }
}

/** The ids among `ids` that exist in a lookup table. */
async function existing(db: DbOrTx, table: PgTable, idColumn: PgColumn, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db.select({ id: idColumn }).from(table).where(inArray(idColumn, ids));
  return new Set(rows.map((r) => r.id as number));
}

interface Lookup {
  label: string;
  table: PgTable;
  idColumn: PgColumn;
}

/** The table each lookup id of the payload names (a new id field fails to compile until listed). */
const LOOKUP_OF: Record<DatasetFieldOfKind<'id'>, Lookup> = {
  analyte_id: { label: 'measurand', table: analytes, idColumn: analytes.id },
  reference_id: { label: 'reference', table: references, idColumn: references.id },
  matrix_id: { label: 'matrix', table: matrices, idColumn: matrices.id },
  state_of_well_being_id: {
    label: 'state of well-being',
    table: statesOfWellBeing,
    idColumn: statesOfWellBeing.id,
  },
  ethnicity_id: { label: 'ethnicity', table: ethnicities, idColumn: ethnicities.id },
  unit_id: { label: 'unit', table: units, idColumn: units.id },
  second_unit_id: { label: 'unit', table: units, idColumn: units.id },
  overall_principle_method_id: {
    label: 'analytical principle method',
    table: analyticalPrincipleMethods,
    idColumn: analyticalPrincipleMethods.id,
  },
};
const ID_FIELDS = datasetFieldsOfKind('id');

/** Field messages for every id of the payload that names nothing (so no foreign-key error reaches SQL). */
export async function findUnknownIds(
  db: DbOrTx,
  input: DatasetInput,
): Promise<{ field: string; message: string }[]> {
  const out: { field: string; message: string }[] = [];
  for (const field of ID_FIELDS) {
    const id = input[field];
    if (id === null) continue;
    const { label, table, idColumn } = LOOKUP_OF[field];
    const found = await existing(db, table, idColumn, [id]);
    if (!found.has(id)) out.push({ field, message: `There is no ${label} with id ${id}.` });
  }
  const diseases = await existing(db, diseaseStates, diseaseStates.id, input.disease_state_ids);
  const missing = input.disease_state_ids.filter((id) => !diseases.has(id));
  if (missing.length > 0) {
    out.push({
      field: 'disease_state_ids',
      message: `There is no disease state with id ${missing.join(', ')}.`,
    });
  }
  return out;
}
