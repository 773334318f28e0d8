import { ConfigError, loadConfig, type Config } from '../config.js';
import { DatabaseUnreachableError, openDatabase } from '../db/client.js';
import { FolderLockedError } from '../db/folder-lock.js';

// npm run migrate: applies the migrations and nothing else (no seed, no administrator, no server),
// for a deploy step that runs once before the replicas of a new release start. It waits for the
// database as a start does (DATABASE_WAIT_SECONDS) and takes the same start-up lock, so a server
// starting meanwhile waits for it. One JSON line on stdout says what it did. Exit codes as a start's:
// 78 for a setting that can never work (a malformed DATABASE_URL), 75 for a server that did not answer.
let config: Config;
try {
  config = loadConfig();
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  console.error(`bvdb: ${err.message}`);
  process.exit(78);
}
try {
  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    password: config.PGPASSWORD,
    dataDir: config.dataDir,
    connect: { waitMs: config.DATABASE_WAIT_SECONDS * 1000 },
    applicationName: 'bvdb-migrate',
    onMigrated: (applied) =>
      console.log(
        JSON.stringify({
          level: 30,
          time: Date.now(),
          msg: applied.length > 0 ? 'migrations applied' : 'migrations up to date',
          applied,
        }),
      ),
  });
  await database.close();
} catch (err) {
  if (err instanceof FolderLockedError || err instanceof DatabaseUnreachableError) {
    console.error(`bvdb: ${err.message}`);
    process.exit(75);
  }
  throw err;
}
