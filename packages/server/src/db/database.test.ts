import { count, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../test/test-app.js';
import type { Database } from './client.js';
import {
  analytes,
  bvSpecifications,
  diseaseStates,
  ethnicities,
  matrices,
  references,
  statesOfWellBeing,
  users,
} from './schema.js';
import { seedDatabase } from '../seed/seed.js';

describe(`database (${process.env.TEST_DATABASE_URL ? 'PostgreSQL server' : 'PGlite'})`, () => {
  let database: Database;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    ({ database, drop } = await createTestDatabase());
  });
  afterAll(async () => drop());

  it('applies the migrations to an empty database', async () => {
    const res = await database.execute(
      `select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
      [],
    );
    const tables = (res.rows as { table_name: string }[]).map((r) => r.table_name);
    for (const t of [
      'analytes',
      'bv_specifications',
      'meta_calculations',
      'references',
      'sessions',
      'jobs',
      'users',
    ]) {
      expect(tables).toContain(t);
    }
  });

  it('seeds the lookup tables of the specification exactly', async () => {
    await seedDatabase(database.db, {
      demo: false,
      adminEmail: 'a@example.org',
      adminPassword: 'password-123',
    });
    const m = await database.db.select().from(matrices).orderBy(matrices.id);
    expect(m).toHaveLength(23);
    expect(m[0]).toMatchObject({ id: 1, matrixExpansion: 'Serum' });
    expect(m[20]).toMatchObject({ id: 21, matrixExpansion: 'Serum/plasma' });
    expect(m[22]).toMatchObject({ id: 23, matrixExpansion: 'Night salivary' });
    const s = await database.db.select().from(statesOfWellBeing).orderBy(statesOfWellBeing.id);
    expect(s.map((x) => x.expansion)).toEqual(['Healthy', 'Non-healthy', 'Pregnant', 'Athletes']);
    const d = await database.db.select().from(diseaseStates).orderBy(diseaseStates.id);
    expect(d).toHaveLength(9);
    expect(d[8]).toMatchObject({ id: 9, itemType: 'Gastrointestinal disease' });
    const e = await database.db.select().from(ethnicities).orderBy(ethnicities.id);
    expect(e[5]).toMatchObject({ id: 6, expansion: 'Caucasian' });
  });

  it('seeds the demo content once: a second run adds nothing', async () => {
    await seedDatabase(database.db, {
      demo: true,
      adminEmail: 'a@example.org',
      adminPassword: 'password-123',
    });
    const counts = async () => {
      const [a] = await database.db.select({ n: count() }).from(analytes);
      const [r] = await database.db.select({ n: count() }).from(references);
      const [b] = await database.db.select({ n: count() }).from(bvSpecifications);
      const [u] = await database.db.select({ n: count() }).from(users);
      return { a: a!.n, r: r!.n, b: b!.n, u: u!.n };
    };
    const first = await counts();
    expect(first.b).toBe(202);
    expect(first.a).toBe(71);
    expect(first.r).toBeGreaterThanOrEqual(112);
    expect(first.u).toBe(1);
    await seedDatabase(database.db, {
      demo: true,
      adminEmail: 'a@example.org',
      adminPassword: 'password-123',
    });
    expect(await counts()).toEqual(first);
  });

  it('refuses a grade that its item does not allow', async () => {
    await expect(
      database.db.execute(
        sql`update bv_specifications set variance_homogeneity = 'B' where id = (select min(id) from bv_specifications)`,
      ),
    ).rejects.toThrow();
  });

  it('refuses a negative estimate', async () => {
    await expect(
      database.db.execute(
        sql`update bv_specifications set estimates_of_cvi = -1 where id = (select min(id) from bv_specifications)`,
      ),
    ).rejects.toThrow();
  });
});
