import { analytes, bvSpecifications } from '../db/schema.js';
import type { Database } from '../db/client.js';
import { bumpDataGeneration } from '../lib/app-state.repository.js';

/** Copies every demo measurand and its datasets (factor − 1) times: a database `factor`× the demo size. */
export async function multiply(database: Database, factor: number) {
  const db = database.db;
  const baseAnalytes = await db.select().from(analytes);
  const baseSpecs = await db.select().from(bvSpecifications);
  for (let k = 2; k <= factor; k++) {
    await db.transaction(async (tx) => {
      for (const a of baseAnalytes) {
        const { id: _id, ...rest } = a;
        const [copy] = await tx
          .insert(analytes)
          .values({ ...rest, displayName: `${a.displayName} (copy ${k})` })
          .returning({ id: analytes.id });
        const specs = baseSpecs
          .filter((s) => s.analyteId === a.id)
          .map(({ id: _sid, ...s }) => ({
            ...s,
            analyteId: copy!.id,
            uniqueIdentifier: `${s.uniqueIdentifier}-${k}`,
          }));
        if (specs.length > 0) await tx.insert(bvSpecifications).values(specs);
      }
      await bumpDataGeneration(tx);
    });
  }
}
