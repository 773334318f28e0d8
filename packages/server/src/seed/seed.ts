import { randomBytes } from 'node:crypto';
import type { Db } from '../db/client.js';
import { createUser, hasAnyUser } from '../modules/auth/index.js';
import { seedContentPages } from '../modules/content/index.js';
import { seedDemo, seedDemoCodes, seedDemoNames } from './demo-seed.js';
import { isDemoSeeded, upsertLookupValues } from './seed.repository.js';

const hasDemoMeasurandsSeeded = (db: Db) => isDemoSeeded(db);

export interface SeedOptions {
  demo: boolean;
  adminEmail?: string | undefined;
  adminPassword?: string | undefined;
}

/** First start: lookups, demo content, and an administrator; every step is safe to repeat. */
export async function seedDatabase(db: Db, opts: SeedOptions) {
  await db.transaction(async (tx) => {
    await upsertLookupValues(tx);
    await seedContentPages(tx);
  });
  const demoSeeded = opts.demo ? await seedDemo(db) : false;
  // A demo database seeded before the alternative names (decision 083) or the sourced codes (issue
  // 45.2) existed gets them once.
  if (opts.demo && !demoSeeded && (await hasDemoMeasurandsSeeded(db)))
    await db.transaction(async (tx) => {
      await seedDemoNames(tx);
      await seedDemoCodes(tx);
    });
  const email = opts.adminEmail ?? 'admin@example.org';
  let generatedAdminPassword: string | undefined;
  // The default administrator only on an empty database; a named one whenever it is missing.
  if (opts.adminEmail || !(await hasAnyUser({ db }))) {
    const password = opts.adminPassword ?? randomBytes(12).toString('base64url');
    const outcome = await createUser({ db }, { email, name: 'Administrator', role: 'admin', password });
    if (outcome === 'created' && !opts.adminPassword) generatedAdminPassword = password;
  }
  return { demoSeeded, adminEmail: email, generatedAdminPassword };
}
