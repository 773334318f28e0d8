import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import pino from 'pino';
import { ConfigError, loadConfig, type Config } from './config.js';
import { DatabaseUnreachableError, openDatabase, withStartupLock, type Database } from './db/client.js';
import { rootMessage } from './db/connection-errors.js';
import { FolderLockedError } from './db/folder-lock.js';
import type { BackgroundTask } from './lib/background-task.js';
import { installLastResort } from './lib/last-resort.js';

/**
 * The app, the seed and the background work: most of the server's code, loaded while the database
 * opens (its thread starts PGlite meanwhile) instead of before (issue 44.5, decision 103). A start
 * refused early (a busy port, a locked folder) never waits for them.
 */
async function loadServerParts() {
  const [app, seed, auth, menu, datasets, recomputeQueue, releases, responseCache] = await Promise.all([
    import('./app.js'),
    import('./seed/seed.js'),
    import('./modules/auth/index.js'),
    import('./modules/menu/index.js'),
    import('./modules/datasets/index.js'),
    import('./modules/recompute-queue/index.js'),
    import('./modules/releases/index.js'),
    import('./lib/response-cache.js'),
  ]);
  return {
    buildApp: app.buildApp,
    startAfterReady: app.startAfterReady,
    seedDatabase: seed.seedDatabase,
    SessionPurge: auth.SessionPurge,
    MenuSweep: menu.MenuSweep,
    warmUpBeforeReady: datasets.warmUpBeforeReady,
    RecomputeWorker: recomputeQueue.RecomputeWorker,
    monthlyReleaseTask: releases.monthlyReleaseTask,
    ResponseCache: responseCache.ResponseCache,
  };
}

const EXIT_CONFIG = 78; // EX_CONFIG
const EXIT_LOCKED = 75; // EX_TEMPFAIL

/** Why the port cannot be ours, as a message naming the setting, with the exit code to use. */
function portProblem(err: unknown, config: Config): { message: string; code: number } | undefined {
  const where = `port ${config.PORT} on ${config.HOST}`;
  const problems: Record<string, { message: string; code: number } | undefined> = {
    EADDRINUSE: {
      message: `${where} is in use by another process: stop it, or set PORT to a free port`,
      code: EXIT_LOCKED,
    },
    EACCES: { message: `not allowed to listen on ${where}: set PORT to 1024 or above`, code: EXIT_CONFIG },
    EADDRNOTAVAIL: {
      message: `HOST ${config.HOST} is not an address of this machine (${where})`,
      code: EXIT_CONFIG,
    },
  };
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return code ? problems[code] : undefined;
}

/**
 * Checked before the database is opened, so that a second server started by mistake on a busy port
 * neither creates and seeds a data folder nor waits for the folder lock.
 */
async function assertPortFree(config: Config): Promise<void> {
  if (config.PORT === 0) return;
  await new Promise<void>((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen({ port: config.PORT, host: config.HOST, exclusive: true }, () =>
      probe.close(() => resolve()),
    );
  });
}

function exitOnPortProblem(err: unknown, config: Config): void {
  const problem = portProblem(err, config);
  if (!problem) return;
  console.error(`bvdb: ${problem.message}`);
  process.exit(problem.code);
}

/**
 * The data folder must be ours to write: a missing one is created, one that cannot be created or
 * written (a read-only mount, a wrong owner) stops the start naming DATA_DIR (exit 78), before the
 * database is opened, rather than failing later on a PDF copy or the lock file.
 */
function assertDataDirWritable(config: Config): void {
  if (config.DATA_DIR.startsWith('memory://')) return;
  const probe = path.join(config.dataDir, `.bvdb-write-probe-${process.pid}`);
  try {
    fs.mkdirSync(config.dataDir, { recursive: true });
    fs.writeFileSync(probe, '');
    fs.rmSync(probe, { force: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    console.error(
      `bvdb: DATA_DIR ${config.dataDir} cannot be written (${code}): mount it writable for this user ` +
        `(uid ${process.getuid?.() ?? '?'}), or set DATA_DIR to a folder it may write`,
    );
    process.exit(EXIT_CONFIG);
  }
}

/**
 * A generated administrator password never goes into the log stream (log collectors keep it): on a
 * terminal it is shown; otherwise it is written to an owner-only file in the data folder and the log
 * says where.
 */
function handOverAdminPassword(config: Config, email: string, password: string): void {
  const advice = 'Change it after signing in (Change Password), or set ADMIN_EMAIL / ADMIN_PASSWORD.';
  if (process.stdout.isTTY) {
    process.stdout.write(
      `\nbvdb: created the administrator ${email} with the password ${password}\n      ${advice}\n\n`,
    );
    return;
  }
  const file = path.join(config.dataDir, 'admin-password.txt');
  fs.writeFileSync(file, `${email}\n${password}\n`, { mode: 0o600 });
  fs.chmodSync(file, 0o600);
  startLog.warn(
    { email, file },
    `created the administrator; its password is in ${file} (owner-only). ${advice}`,
  );
}

/** The start's own lines, JSON like the server's log (every stdout line is JSON). */
let startLog: pino.Logger = pino({ level: 'info' });

async function start(config: Config): Promise<void> {
  startLog = pino({ level: config.LOG_LEVEL, base: { pid: process.pid, role: config.ROLE } });
  if (config.ROLE !== 'worker') {
    await assertPortFree(config).catch((err: unknown) => {
      exitOnPortProblem(err, config);
      throw err;
    });
  }
  // After the port check: a server refused for a busy port creates no data folder.
  assertDataDirWritable(config);
  const loading = loadServerParts();
  // Awaited after the database is open; a failure to load is reported there, not as unhandled.
  loading.catch(() => undefined);
  let database: Database | undefined;
  try {
    database = await openDatabase({
      databaseUrl: config.DATABASE_URL,
      password: config.PGPASSWORD,
      dataDir: config.dataDir,
      connect: { waitMs: config.DATABASE_WAIT_SECONDS * 1000 },
      // The embedded database in a thread of its own: its rows are read and decoded off the event
      // loop (decision 085). A thread that dies is started again on the folder (503 meanwhile);
      // one that cannot be is the end of this process, its folder lock let go first.
      thread: true,
      onThreadFatal: (err) => {
        startLog.fatal({ err: err.message }, 'the embedded database cannot be opened again: exiting');
        const closing = database ? database.close() : Promise.resolve();
        void closing.catch(() => undefined).finally(() => process.exit(1));
      },
      // Named in pg_stat_activity, so a DBA sees which process holds a connection.
      applicationName: config.ROLE === 'worker' ? 'bvdb-worker' : config.ROLE === 'web' ? 'bvdb-web' : 'bvdb',
      onMigrated: (applied) => {
        if (applied.length > 0) startLog.info({ applied }, 'migrations applied');
      },
    });
  } catch (err) {
    if (err instanceof FolderLockedError || err instanceof DatabaseUnreachableError) {
      console.error(`bvdb: ${err.message}`);
      process.exit(EXIT_LOCKED);
    }
    throw err;
  }
  const {
    buildApp,
    startAfterReady,
    seedDatabase,
    SessionPurge,
    MenuSweep,
    warmUpBeforeReady,
    RecomputeWorker,
    monthlyReleaseTask,
    ResponseCache,
  } = await loading;
  // Replicas started together on an empty database seed one after the other (decision 040).
  const seeded = await withStartupLock(database, () =>
    seedDatabase(database.db, {
      demo: config.SEED_DEMO,
      adminEmail: config.ADMIN_EMAIL,
      adminPassword: config.ADMIN_PASSWORD,
    }),
  );
  if (seeded.generatedAdminPassword) {
    handOverAdminPassword(config, seeded.adminEmail, seeded.generatedAdminPassword);
  }
  // The read cache is made here, before the app, so the recompute's worker drops its answers when a
  // batch commits (ROLE=worker has no app: the cache is kept by nobody and costs nothing).
  const cache = ResponseCache.forConfig(config);
  const recompute = new RecomputeWorker(database, () => cache.invalidate(), { log: startLog });
  const works = config.ROLE !== 'web';
  const deps = { db: database.db, log: startLog, config };
  // Background work (decision 048), each task beside the module it serves (decision 077): the
  // recompute's worker in every process (ROLE=web records and does not drain), the upkeep on
  // timers only in the processes that do background work. Started in order, stopped in reverse.
  const recomputeTask: BackgroundTask = {
    start: () => recompute.start({ work: works }),
    stop: () => recompute.stop(),
  };
  const upkeep: BackgroundTask[] = works
    ? [
        // Expired sessions.
        new SessionPurge(database.db),
        // Link menus not opened for 13 months (decision 064).
        new MenuSweep(database.db),
        // The monthly release (decision 058), with a service of its own.
        monthlyReleaseTask(deps),
      ]
    : [];
  const background = [recomputeTask, ...upkeep];
  await recomputeTask.start();
  // The upkeep's first runs wait until the server is ready (issue 44.5): on the embedded database
  // every query waits its turn, and none of them is needed to answer the first request.
  const startUpkeep = async () => {
    for (const task of upkeep) await task.start();
  };
  const stopBackground = async () => {
    for (const task of [...background].reverse()) await task.stop();
  };
  if (config.ROLE === 'worker') {
    await startUpkeep();
    startLog.info('job worker running (ROLE=worker, no HTTP server)');
    const stop = async () => {
      startLog.info('shutting down');
      await stopBackground();
      await database.close();
      process.exit(0);
    };
    process.on('SIGINT', () => void stop());
    process.on('SIGTERM', () => void stop());
    return;
  }
  const app = await buildApp({ config, database, recompute, cache });
  faultLog.logger = app.log;
  faultLog.recentRequests = () => app.recentRequests.list();
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    // The drain window: /readyz answers 503 at once, so a load balancer takes this replica out,
    // while every other request is still served; then the server closes. The force-exit timer
    // allows the drain plus ten seconds for the requests in flight and the database to close.
    // SIGINT is someone at a terminal (Ctrl-C): nothing to drain from, close at once.
    const drainSeconds = signal === 'SIGTERM' ? config.SHUTDOWN_DRAIN_SECONDS : 0;
    const drainMs = drainSeconds * 1000;
    app.lifecycle.draining = true;
    app.log.info({ signal, drainSeconds }, 'shutting down: draining');
    const force = setTimeout(() => {
      app.log.error({ signal }, 'shutdown took too long: exiting');
      process.exit(1);
    }, drainMs + 10_000);
    force.unref();
    try {
      if (drainMs > 0) await new Promise((resolve) => setTimeout(resolve, drainMs));
      app.log.info('closing');
      await app.close();
      await stopBackground();
      await database.close();
    } finally {
      process.exit(0);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  try {
    await app.listen({ port: config.PORT, host: config.HOST });
  } catch (err) {
    // Taken between the check and now: close what was opened, then say so.
    await stopBackground().catch(() => undefined);
    await database.close().catch(() => undefined);
    exitOnPortProblem(err, config);
    throw err;
  }
  const where = database.kind === 'pglite' ? `embedded database in ${config.dataDir}` : 'PostgreSQL server';
  app.log.info(
    { url: `http://${config.HOST}:${config.PORT}/`, database: where },
    `serving on http://${config.HOST}:${config.PORT}/ (${where})`,
  );
  // The public catalogue kept before /readyz says ready (decision 072).
  const warm = await warmUpBeforeReady(app, config.WARM_UP_READY_SECONDS);
  if (config.WARM_UP_READY_SECONDS > 0)
    app.log.info(
      { rows: warm.rows, seconds: Number(warm.seconds.toFixed(1)), complete: warm.complete },
      warm.complete
        ? `ready: ${warm.rows} published datasets kept in ${warm.seconds.toFixed(1)} s`
        : `ready before the warm-up ended (WARM_UP_READY_SECONDS): ${warm.rows} published datasets kept so far`,
    );
  if (!closing) {
    // Threads and tables a first request would otherwise wait for (issue 45), in the background.
    void startAfterReady(app);
    await startUpkeep();
  }
}

/** Where a fault nothing caught is logged: the console until the app (and its logger) exists. */
const faultLog = {
  logger: { fatal: (obj: object, msg: string) => console.error(`bvdb: ${msg}`, obj) },
  recentRequests: (): string[] => [],
};
installLastResort({ fatal: (obj, msg) => faultLog.logger.fatal(obj, msg) }, () => faultLog.recentRequests());

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
  // The driver's reason (duplicate key…, connection refused…), not Drizzle's "Failed query: <SQL>".
  console.error(`bvdb: failed to start: ${rootMessage(err)}`);
  process.exit(1);
});
