import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analytes, bvSpecifications } from './schema.js';
import type { Database } from './client.js';
import { readByIdsInPages, readInPages } from './read-in-pages.js';
import { seedDatabase } from '../seed/seed.js';
import { createTestDatabase } from '../test/test-app.js';
import * as analytesRepo from '../modules/analytes/analytes.repository.js';
import * as datasetsRepo from '../modules/datasets/datasets.repository.js';
import * as menuRepo from '../modules/menu/menu.repository.js';
import * as metasRepo from '../modules/meta-analysis/results/meta-results.repository.js';
import { currentVersionsOf } from '../modules/estimates/estimates.service.js';

// Whole-table reads a page at a time (issue 44.1): the rows, and their order, are those one query
// gives, whatever the page size; the pages follow each other by key.

describe('readInPages', () => {
  const rows = Array.from({ length: 10 }, (_, i) => ({ id: (i + 1) * 3 }));
  const pagesOf = (pageRows: number) => {
    const asked: (number | undefined)[] = [];
    const read = readInPages(
      async (after: number | undefined, limit) => {
        asked.push(after);
        return rows.filter((r) => after === undefined || r.id > after).slice(0, limit);
      },
      (r) => r.id,
      pageRows,
    );
    return { read, asked };
  };

  it('reads page after page from the last key until a short page', async () => {
    const { read, asked } = pagesOf(4);
    expect(await read).toEqual(rows);
    expect(asked).toEqual([undefined, 12, 24]);
  });

  it('reads one empty page more when the rows fill the last page exactly', async () => {
    const { read, asked } = pagesOf(5);
    expect(await read).toEqual(rows);
    expect(asked).toEqual([undefined, 15, 30]);
  });

  it('gives nothing for nothing', async () => {
    expect(
      await readInPages(
        async () => [],
        (r: { id: number }) => r.id,
      ),
    ).toEqual([]);
  });
});

describe('readByIdsInPages', () => {
  it('gives the rows in the order of the ids, leaving out ids without a row, a page of ids a read', async () => {
    const asked: number[][] = [];
    const rows = await readByIdsInPages(
      [5, 1, 9, 3, 7],
      async (ids) => {
        asked.push(ids);
        // In any order, one id without a row.
        return ids
          .filter((id) => id !== 9)
          .map((id) => ({ id }))
          .reverse();
      },
      (r) => r.id,
      2,
    );
    expect(rows.map((r) => r.id)).toEqual([5, 1, 3, 7]);
    expect(asked).toEqual([[5, 1], [9, 3], [7]]);
  });
});

describe('whole reads in pages give what one query gives (demo data)', () => {
  let database: Database;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ database, drop } = await createTestDatabase());
    await seedDatabase(database.db, {
      demo: true,
      adminEmail: 'admin@example.org',
      adminPassword: 'pw-12345678',
    });
  });
  afterAll(async () => drop());

  it('every measurand, in id order', async () => {
    const all = await database.db.select().from(analytes).orderBy(asc(analytes.id));
    expect(all.length).toBeGreaterThan(10);
    expect(await analytesRepo.listAllAnalytes(database.db)).toEqual(all);
  });

  it('every displayed result by name: ids in order, then rows by id, in pages of 7', async () => {
    const one = await metasRepo.listDisplayedMetas(database.db, { limit: 1_000_000 });
    expect(one.length).toBeGreaterThan(14);
    expect(await metasRepo.listDisplayedMetas(database.db, {}, 7)).toEqual(one);
  });

  it('every measurand’s displayed results in keyset pages of (measurand, id), in pages of 7', async () => {
    const ids = (await database.db.select({ id: analytes.id }).from(analytes)).map((a) => a.id);
    const one = await metasRepo.listDisplayedMetasOfAnalytes(database.db, ids);
    expect(one.length).toBeGreaterThan(14);
    expect(await metasRepo.listDisplayedMetasOfAnalytes(database.db, undefined, 7)).toEqual(one);
  });

  it('every measurand’s dataset codes, distinct across pages of 3 datasets', async () => {
    // Codes on the first twelve published datasets, the same code on each measurand's datasets
    // (its datasets are read in different pages), one with an NPU code too.
    const coded = await database.db
      .select({ id: bvSpecifications.id, analyteId: bvSpecifications.analyteId })
      .from(bvSpecifications)
      .where(eq(bvSpecifications.published, true))
      .orderBy(asc(bvSpecifications.id))
      .limit(12);
    for (const [i, d] of coded.entries())
      await database.db
        .update(bvSpecifications)
        .set({ loinc: `${d.analyteId}-1`, npu: i === 5 ? 'NPU01234' : null })
        .where(eq(bvSpecifications.id, d.id));
    const ids = (await database.db.select({ id: analytes.id }).from(analytes)).map((a) => a.id);
    const key = (r: {
      analyteId: number;
      loinc: string | null;
      npu: string | null;
      snomedCt: string | null;
    }) => JSON.stringify([r.analyteId, r.loinc, r.npu, r.snomedCt]);
    const one = (await menuRepo.listPublishedDatasetCodes(database.db, ids)).map(key).sort();
    expect(one.length).toBeGreaterThan(3);
    const paged = (await menuRepo.listPublishedDatasetCodes(database.db, undefined, 3)).map(key).sort();
    expect(paged).toEqual(one);
    expect(new Set(one).size).toBe(one.length);
  });

  it('every published dataset’s owner and index entry, in id order', async () => {
    const owners = await analytesRepo.listPublishedDatasetOwners(database.db);
    const index = await datasetsRepo.listPublishedDatasetIndex(database.db);
    expect(owners.length).toBeGreaterThan(10);
    expect(owners.map((o) => o.id)).toEqual([...owners.map((o) => o.id)].sort((a, b) => a - b));
    expect(index.map((e) => [e.id, e.analyteId])).toEqual(owners.map((o) => [o.id, o.analyteId]));
    const byIds = await analytesRepo.listPublishedDatasetOwners(
      database.db,
      owners.map((o) => o.id),
    );
    expect([...byIds].sort((a, b) => a.id - b.id)).toEqual(owners);
  });

  it('the current version of each estimate, read a step of measurands at a time', async () => {
    const ids = (await database.db.select({ id: analytes.id }).from(analytes)).map((a) => a.id);
    const all = await currentVersionsOf(database.db, ids);
    expect(all.size).toBeGreaterThan(3);
    // Asked one measurand at a time, the same estimates and versions.
    const each = new Map<string, { estimateId: number; version: number }>();
    for (const id of ids) for (const [k, v] of await currentVersionsOf(database.db, [id])) each.set(k, v);
    expect(new Map([...each].sort())).toEqual(new Map([...all].sort()));
  });
});
