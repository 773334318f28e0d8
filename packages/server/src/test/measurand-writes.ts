import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { buildApp } from '../app.js';
import { openDatabase, type Database } from '../db/client.js';
import { analytes, bvSpecifications } from '../db/schema.js';
import { serviceDeps, type ServiceDeps } from '../lib/service-deps.js';
import { writeTransaction } from '../lib/write-transaction.js';
import { recomputeAnalytesMetas } from '../modules/meta-analysis/calculation/meta-calculation.service.js';
import { testConfig, type TestContext } from './test-app.js';

// The writes the kept indexes' tests make (decision 066: the search's and the menu's catalogue follow
// the change log), each as a service would make it: in a write transaction that names its scopes.

type Deps = Pick<ServiceDeps, 'db' | 'cache'>;
type Measurand = typeof analytes.$inferSelect;

/** Sodium as the demo seeds it. */
export async function findSodium(deps: Pick<Deps, 'db'>): Promise<Measurand> {
  const [sodium] = await deps.db.select().from(analytes).where(eq(analytes.displayName, 'Sodium'));
  return sodium!;
}

/** One write: Sodium gets another alternative name and a new measurand is added; the new one's id. */
export function addAlternateNameAndMeasurand(
  deps: Deps,
  sodium: Measurand,
  alternateName: string,
  measurand: typeof analytes.$inferInsert,
): Promise<number> {
  return writeTransaction(
    deps,
    async (tx) => {
      await tx
        .update(analytes)
        .set({ alternateNames: [...sodium.alternateNames, alternateName] })
        .where(eq(analytes.id, sodium.id));
      const [row] = await tx.insert(analytes).values(measurand).returning({ id: analytes.id });
      return row!.id;
    },
    ['analytes'],
  );
}

/** One write: the measurand `added` deleted and Sodium renamed Natrium. */
export function deleteMeasurandAndRenameSodium(deps: Deps, added: number, sodium: Measurand) {
  return writeTransaction(
    deps,
    async (tx) => {
      await tx.delete(analytes).where(eq(analytes.id, added));
      await tx.update(analytes).set({ displayName: 'Natrium' }).where(eq(analytes.id, sodium.id));
    },
    ['analytes'],
  );
}

/** Sodium's name and alternative names back as they were. */
export function restoreSodium(deps: Deps, sodium: Measurand) {
  return writeTransaction(
    deps,
    (tx) =>
      tx
        .update(analytes)
        .set({ displayName: sodium.displayName, alternateNames: sodium.alternateNames })
        .where(eq(analytes.id, sodium.id)),
    ['analytes'],
  );
}

/** Writes a dataset's columns, with its measurand's recompute when `recompute` (as a curator's save). */
export function writeDataset(
  deps: Deps,
  dataset: { id: number; analyteId?: number },
  set: Partial<typeof bvSpecifications.$inferInsert>,
  recompute = false,
) {
  return writeTransaction(
    deps,
    async (tx) => {
      await tx.update(bvSpecifications).set(set).where(eq(bvSpecifications.id, dataset.id));
      if (recompute) await recomputeAnalytesMetas(tx, [dataset.analyteId!]);
    },
    recompute ? ['datasets', 'metas'] : ['datasets'],
  );
}

/**
 * A second app on the test's PostgreSQL database, as another process of the same deployment: its
 * own pool and change listener (set up before the file's tests, closed after them).
 */
export function useSecondProcess(ctx: TestContext): () => FastifyInstance {
  let database: Database;
  let reader: FastifyInstance;
  beforeAll(async () => {
    database = await openDatabase({ databaseUrl: ctx.database.connectionString!, dataDir: 'unused' });
    reader = await buildApp({ config: testConfig(), database });
    await reader.ready();
  });
  afterAll(async () => {
    await reader.close();
    await database.close();
  });
  return () => reader;
}

/**
 * Gives Sodium the alternative name `name` through `writer`, waits until `reader` has heard of the
 * write (its notification, or the poll on the next read), runs `check`, and gives Sodium back its
 * names whatever `check` did.
 */
export async function withAlternateNameSeenBy(
  writer: FastifyInstance,
  reader: FastifyInstance,
  name: string,
  check: (sodium: Measurand) => Promise<void>,
): Promise<void> {
  const deps = serviceDeps(writer);
  const sodium = await findSodium(deps);
  const stamp = reader.deps.cache.stampOf(['analytes']);
  await writeTransaction(
    deps,
    (tx) =>
      tx
        .update(analytes)
        .set({ alternateNames: [...sodium.alternateNames, name] })
        .where(eq(analytes.id, sodium.id)),
    ['analytes'],
  );
  try {
    for (let i = 0; i < 500 && reader.deps.cache.stampOf(['analytes']) === stamp; i++)
      await new Promise((r) => setTimeout(r, 10));
    await check(sodium);
  } finally {
    await restoreSodium(deps, sodium);
  }
}
