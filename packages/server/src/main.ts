import { buildApp } from './app.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { openDatabase, type Database } from './db/client.js';
import { FolderLockedError } from './db/folder-lock.js';
import { seedDatabase } from './seed/seed.js';
import { JobQueue } from './modules/meta-analysis/jobs/job-queue.js';

const EXIT_CONFIG = 78; // EX_CONFIG
const EXIT_LOCKED = 75; // EX_TEMPFAIL

async function start(config: Config): Promise<void> {
  let database: Database;
  try {
    database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir });
  } catch (err) {
    if (err instanceof FolderLockedError) {
      console.error(`bvdb: ${err.message}`);
      process.exit(EXIT_LOCKED);
    }
    throw err;
  }
  const seeded = await seedDatabase(database.db, {
    demo: config.SEED_DEMO,
    adminEmail: config.ADMIN_EMAIL,
    adminPassword: config.ADMIN_PASSWORD,
  });
  if (seeded.generatedAdminPassword) {
    // Printed once: it is not stored anywhere in clear text.
    console.log(
      `\nbvdb: created the administrator ${seeded.adminEmail} with the password ${seeded.generatedAdminPassword}\n` +
        '      Change it after signing in (Change Password), or set ADMIN_EMAIL / ADMIN_PASSWORD.\n',
    );
  }
  let invalidateCache = () => {};
  const jobs = new JobQueue(database, () => invalidateCache());
  await jobs.start({ work: config.ROLE !== 'web' });
  if (config.ROLE === 'worker') {
    console.log('bvdb: job worker running (ROLE=worker, no HTTP server)');
    const stop = async () => {
      await jobs.stop();
      await database.close();
      process.exit(0);
    };
    process.on('SIGINT', () => void stop());
    process.on('SIGTERM', () => void stop());
    return;
  }
  const app = await buildApp({ config, database, jobs });
  invalidateCache = () => app.deps.cache.invalidate();
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    try {
      await app.close();
      await jobs.stop();
      await database.close();
    } finally {
      process.exit(0);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  await app.listen({ port: config.PORT, host: config.HOST });
  const where = database.kind === 'pglite' ? `embedded database in ${config.dataDir}` : 'PostgreSQL server';
  console.log(`bvdb: serving on http://${config.HOST}:${config.PORT}/ (${where})`);
}

let config: Config;
try {
  // `--role=web|worker|all` on the command line wins over ROLE in the environment.
  const roleArg = process.argv.find((a) => a.startsWith('--role='))?.slice('--role='.length);
  config = loadConfig(roleArg ? { ...process.env, ROLE: roleArg } : process.env);
} catch (err) {
  if (err instanceof ConfigError) {
    console.error(`bvdb: ${err.message}`);
    process.exit(EXIT_CONFIG);
  }
  throw err;
}
start(config).catch((err: unknown) => {
  console.error('bvdb: failed to start:', err instanceof Error ? err.message : err);
  process.exit(1);
});
