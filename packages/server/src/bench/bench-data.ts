import { analytes, bvSpecifications } from '../db/schema.js';
import type { Database } from '../db/client.js';
import { bumpDataGeneration } from '../lib/app-state.repository.js';

/** Copies every demo measurand and its datasets (factor − 1) times, in batched inserts: a database `factor`× the demo size. */
export async function multiply(database: Database, factor: number) {
  const db = database.db;
  const baseAnalytes = await db.select().from(analytes);
  const baseSpecs = await db.select().from(bvSpecifications);
  for (let k = 2; k <= factor; k++) {
    await db.transaction(async (tx) => {
      const copies = await tx
        .insert(analytes)
        .values(
          baseAnalytes.map(({ id: _id, ...a }) => ({ ...a, displayName: `${a.displayName} (copy ${k})` })),
        )
        .returning({ id: analytes.id, displayName: analytes.displayName });
      const idOf = new Map(copies.map((c) => [c.displayName, c.id]));
      const specs = baseSpecs.map(({ id: _sid, ...s }) => ({
        ...s,
        analyteId: idOf.get(`${baseAnalytes.find((a) => a.id === s.analyteId)!.displayName} (copy ${k})`)!,
        uniqueIdentifier: `${s.uniqueIdentifier}-${k}`,
      }));
      for (let i = 0; i < specs.length; i += 500)
        await tx.insert(bvSpecifications).values(specs.slice(i, i + 500));
      await bumpDataGeneration(tx);
    });
  }
}
