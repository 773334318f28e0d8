import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.js';
import { bvSpecifications } from '../../db/schema.js';
import { seedDatabase } from '../../seed/seed.js';
import { createTestDatabase } from '../../test/test-app.js';
import * as repo from './datasets.repository.js';

// Reads by id fetch references and measurands by their ids instead of joining them (decision 042):
// the rows must be exactly what the one joined query (`order: 'name'` still reads it) gives.

let database: Database;
let drop: () => Promise<void>;
let unpublished: number[];
beforeAll(async () => {
  ({ database, drop } = await createTestDatabase());
  await seedDatabase(database.db, {
    demo: true,
    adminEmail: 'admin@example.org',
    adminPassword: 'pw-12345678',
  });
  const ids = (await database.db.select({ id: bvSpecifications.id }).from(bvSpecifications)).map((r) => r.id);
  unpublished = ids.filter((_, i) => i % 7 === 3);
  await database.db
    .update(bvSpecifications)
    .set({ published: false })
    .where(inArray(bvSpecifications.id, unpublished));
});
afterAll(async () => drop());

const byId = (rows: repo.DatasetRow[]) => [...rows].sort((a, b) => a.spec.id - b.spec.id);

describe('datasets read by id', () => {
  it.each([false, true])('equal the joined rows, signed in: %s', async (signedIn) => {
    const joined = byId(await repo.listDatasets(database.db, { signedIn }));
    expect(joined.length).toBeGreaterThan(100);
    const allIds = (await database.db.select({ id: bvSpecifications.id }).from(bvSpecifications)).map(
      (r) => r.id,
    );
    // Asked in any order, with an unknown id: id order, visible ones only.
    const found = await repo.findVisibleDatasets(
      database.db,
      [...allIds].reverse().concat(999_999),
      signedIn,
    );
    expect(found).toEqual(joined);
    expect(found.map((r) => r.spec.id)).toEqual(joined.map((r) => r.spec.id));
    // The same key order in every part of a row.
    expect(Object.keys(found[0]!)).toEqual(Object.keys(joined[0]!));
    expect(Object.keys(found[0]!.reference)).toEqual(Object.keys(joined[0]!.reference));
    // Paged by id (the signed-in page) and one at a time.
    const paged = await repo.listDatasets(database.db, { signedIn, order: 'id', limit: 40, offset: 30 });
    expect(paged).toEqual(joined.slice(30, 70));
    for (const row of joined.slice(0, 5))
      expect(await repo.findVisibleDataset(database.db, row.spec.id, signedIn)).toEqual(row);
  });

  it('leave unpublished datasets out for anonymous readers only', async () => {
    const some = unpublished.slice(0, 3);
    expect(await repo.findVisibleDatasets(database.db, some, false)).toEqual([]);
    expect((await repo.findVisibleDatasets(database.db, some, true)).map((r) => r.spec.id)).toEqual(some);
    expect(await repo.findVisibleDataset(database.db, some[0]!, false)).toBeUndefined();
  });
});
