import { ConfigError, loadConfig, type Config } from '../config.js';
import { openDatabase } from '../db/client.js';
import { FolderLockedError } from '../db/folder-lock.js';

/**
 * Operators' commands open the same database as the server and respect its folder lock: on the
 * embedded database, stop the server first (with DATABASE_URL they run beside it).
 */
export async function openCliDatabase() {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    console.error(`bvdb: ${err.message}`);
    process.exit(78); // EX_CONFIG, as a start
  }
  try {
    return await openDatabase({
      databaseUrl: config.DATABASE_URL,
      password: config.PGPASSWORD,
      dataDir: config.dataDir,
      applicationName: 'bvdb-cli',
    });
  } catch (err) {
    if (err instanceof FolderLockedError) {
      console.error(`${err.message}\nStop the server, run this command, then start the server again.`);
      process.exit(75);
    }
    throw err;
  }
}

export function argValue(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  if (i >= 0) return process.argv[i + 1];
  return process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
}

/** The password from BVDB_PASSWORD, or asked for on the terminal without echo. */
export async function readPassword(prompt: string): Promise<string> {
  if (process.env.BVDB_PASSWORD) return process.env.BVDB_PASSWORD;
  const { createInterface } = await import('node:readline');
  const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
  const out = rl as unknown as { _writeToOutput: (s: string) => void; output: NodeJS.WriteStream };
  out._writeToOutput = (s: string) => {
    if (s.includes(prompt)) process.stdout.write(s);
  };
  return new Promise((resolve) =>
    rl.question(prompt, (answer) => {
      rl.close();
      process.stdout.write('\n');
      resolve(answer);
    }),
  );
}
