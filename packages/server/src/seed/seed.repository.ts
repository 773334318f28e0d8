import {
  DISEASE_STATES,
  ETHNICITIES,
  MATRICES,
  MATRIX_EXPLANATIONS,
  STATES_OF_WELL_BEING,
} from '@bvdb/domain';
import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';
import {
  analytes,
  appState,
  bvSpecificationDiseaseStates,
  bvSpecifications,
  diseaseStates,
  ethnicities,
  matrices,
  matrixConsolidationMembers,
  measurandCodes,
  measurandNames,
  matrixConsolidations,
  references,
  statesOfWellBeing,
  units,
} from '../db/schema.js';

const DEMO_SEEDED_KEY = 'demo_seeded';
const DEMO_NAMES_SEEDED_KEY = 'demo_names_seeded';
const DEMO_CODES_SEEDED_KEY = 'demo_codes_seeded';

/** The value an upsert's row proposed for this column. */
const excluded = (column: { name: string }) => sql`excluded.${sql.identifier(column.name)}`;

/**
 * Lookup values of spec section 3, exactly; re-running updates names and adds nothing twice. One
 * statement a table: this runs at every start, before the server is ready (issue 44.5).
 */
export async function upsertLookupValues(db: DbOrTx): Promise<void> {
  await db
    .insert(matrices)
    .values(
      MATRICES.map((m) => ({
        id: m.id,
        matrixExpansion: m.name,
        matrixExplanation: MATRIX_EXPLANATIONS[m.id] ?? null,
      })),
    )
    .onConflictDoUpdate({
      target: matrices.id,
      // Every start: a database seeded before explanations existed gets them; one an
      // administrator wrote is kept.
      set: {
        matrixExpansion: excluded(matrices.matrixExpansion),
        matrixExplanation: sql`coalesce(nullif(trim(${matrices.matrixExplanation}), ''), excluded.matrix_explanation)`,
      },
    });
  await db
    .insert(statesOfWellBeing)
    .values(STATES_OF_WELL_BEING.map((s) => ({ id: s.id, expansion: s.name })))
    .onConflictDoUpdate({
      target: statesOfWellBeing.id,
      set: { expansion: excluded(statesOfWellBeing.expansion) },
    });
  await db
    .insert(diseaseStates)
    .values(DISEASE_STATES.map((d) => ({ id: d.id, itemType: d.name })))
    .onConflictDoUpdate({ target: diseaseStates.id, set: { itemType: excluded(diseaseStates.itemType) } });
  await db
    .insert(ethnicities)
    .values(ETHNICITIES.map((e) => ({ id: e.id, expansion: e.name })))
    .onConflictDoUpdate({ target: ethnicities.id, set: { expansion: excluded(ethnicities.expansion) } });
  // Serum, plasma and serum/plasma estimates are pooled in one meta-analysis.
  await db
    .insert(matrixConsolidations)
    .values({ id: 1, name: 'Serum/Plasma (pooled)', description: 'Serum, plasma and serum/plasma together' })
    .onConflictDoNothing();
  await db
    .insert(matrixConsolidationMembers)
    .values([1, 2, 21].map((matrixId) => ({ consolidationId: 1, matrixId })))
    .onConflictDoNothing();
}

/** The id of the unit with this name, added when missing. */
export async function ensureUnit(db: DbOrTx, name: string): Promise<number> {
  await db.insert(units).values({ name }).onConflictDoNothing();
  const [row] = await db.select({ id: units.id }).from(units).where(eq(units.name, name));
  return row!.id;
}

export async function insertReference(db: DbOrTx, values: typeof references.$inferInsert): Promise<number> {
  const [row] = await db.insert(references).values(values).returning({ id: references.id });
  return row!.id;
}

export async function insertAnalyte(db: DbOrTx, values: typeof analytes.$inferInsert): Promise<number> {
  const [row] = await db.insert(analytes).values(values).returning({ id: analytes.id });
  return row!.id;
}

export async function insertDataset(
  db: DbOrTx,
  values: typeof bvSpecifications.$inferInsert,
  diseaseStateIds: number[],
): Promise<void> {
  const [row] = await db.insert(bvSpecifications).values(values).returning({ id: bvSpecifications.id });
  for (const diseaseStateId of diseaseStateIds) {
    await db.insert(bvSpecificationDiseaseStates).values({ bvSpecificationId: row!.id, diseaseStateId });
  }
}

/** The demo content is added once per database, even if an operator later deletes some of it. */
export async function isDemoSeeded(db: DbOrTx): Promise<boolean> {
  const [row] = await db.select().from(appState).where(eq(appState.key, DEMO_SEEDED_KEY));
  return row !== undefined;
}

export async function markDemoSeeded(db: DbOrTx): Promise<void> {
  await db.insert(appState).values({ key: DEMO_SEEDED_KEY, value: sql`to_jsonb(now())` });
}

/** The demo measurands by display name. */
export async function demoAnalyteIdsByName(db: DbOrTx): Promise<Map<string, number>> {
  const rows = await db
    .select({ id: analytes.id, name: analytes.displayName })
    .from(analytes)
    .where(eq(analytes.isDemo, true));
  return new Map(rows.map((r) => [r.name, r.id]));
}

/** Alternative names, each where its key is free (the unique key keeps the first). */
export async function insertMeasurandNames(
  db: DbOrTx,
  rows: { analyteId: number; name: string; matchKey: string; source: string | null }[],
): Promise<void> {
  if (rows.length === 0) return;
  await db.insert(measurandNames).values(rows).onConflictDoNothing();
}

export async function isDemoNamesSeeded(db: DbOrTx): Promise<boolean> {
  const [row] = await db.select().from(appState).where(eq(appState.key, DEMO_NAMES_SEEDED_KEY));
  return row !== undefined;
}

export async function markDemoNamesSeeded(db: DbOrTx): Promise<void> {
  await db.insert(appState).values({ key: DEMO_NAMES_SEEDED_KEY, value: sql`to_jsonb(now())` });
}

/** The matrices by name (as the lookup writes them). */
export async function matrixIdsByName(db: DbOrTx): Promise<Map<string, number>> {
  const rows = await db.select({ id: matrices.id, name: matrices.matrixExpansion }).from(matrices);
  return new Map(rows.map((r) => [r.name, r.id]));
}

/** Codes of measurands, each where its (system, code) is free (the unique key keeps the first). */
export async function insertMeasurandCodes(
  db: DbOrTx,
  rows: (typeof measurandCodes.$inferInsert)[],
): Promise<number> {
  if (rows.length === 0) return 0;
  const added = await db
    .insert(measurandCodes)
    .values(rows)
    .onConflictDoNothing()
    .returning({ id: measurandCodes.id });
  return added.length;
}

export async function isDemoCodesSeeded(db: DbOrTx, key = DEMO_CODES_SEEDED_KEY): Promise<boolean> {
  const [row] = await db.select().from(appState).where(eq(appState.key, key));
  return row !== undefined;
}

export async function markDemoCodesSeeded(db: DbOrTx, key = DEMO_CODES_SEEDED_KEY): Promise<void> {
  await db.insert(appState).values({ key, value: sql`to_jsonb(now())` });
}
