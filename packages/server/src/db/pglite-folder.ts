import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Something went wrong while a child process created the embedded database: the message says what. */
export class PgliteCreateError extends Error {}

export interface CreateOptions {
  migrationsFolder: string;
  /** A child that neither finishes nor fails in this time is killed and reported. */
  timeoutMs?: number;
}

/** The folder holds a database PGlite made (initdb writes PG_VERSION first of all). */
export function pgliteFolderExists(pgdata: string): boolean {
  return fs.existsSync(path.join(pgdata, 'PG_VERSION'));
}

/**
 * The child's entry: built code runs the .js file; tests and `npm run dev` run the TypeScript
 * source through tsx (as spawn-worker.ts does for threads).
 */
function childCommand(): string[] {
  const here = import.meta.url;
  const file = fileURLToPath(new URL('./pglite-create.child.js', here));
  if (here.endsWith('.js')) return [file];
  const tsx = createRequire(here).resolve('tsx');
  return ['--import', tsx, '--conditions=source', file.replace(/\.js$/, '.ts')];
}

/**
 * Creates the embedded database at `pgdata` (initdb and the migrations) in a short-lived child
 * process, whose memory (PGlite's initdb peaks near 1 GB) is returned when it exits; the caller
 * then opens the finished folder in its own process. The caller holds the data folder's lock all
 * along, so no other bvdb process opens the folder meanwhile. The child works in a temporary
 * folder beside `pgdata`, renamed into place only when it succeeded: a child that fails or is
 * killed leaves no half-made database, and the next start begins again.
 */
export async function createPgliteFolder(pgdata: string, opts: CreateOptions): Promise<void> {
  const timeoutMs = opts.timeoutMs ?? 10 * 60_000;
  const temp = `${pgdata}.creating`;
  fs.mkdirSync(path.dirname(pgdata), { recursive: true });
  fs.rmSync(temp, { recursive: true, force: true }); // a creation an earlier start left unfinished
  if (fs.existsSync(pgdata)) {
    // An empty folder (say a volume mounted there) is one not created yet; anything else is not ours.
    if (fs.readdirSync(pgdata).length > 0) {
      throw new PgliteCreateError(
        `${pgdata} holds files but no database (no PG_VERSION): move them away, or restore the folder from a backup`,
      );
    }
    fs.rmdirSync(pgdata);
  }
  const child = spawn(process.execPath, [...childCommand(), temp, opts.migrationsFolder], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-4000);
  });
  const outcome = await new Promise<{ code: number | null; signal: string | null; timedOut: boolean }>(
    (resolve, reject) => {
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        child.kill('SIGKILL');
      }, timeoutMs);
      child.on('error', (err) => {
        clearTimeout(timer);
        reject(
          new PgliteCreateError(
            `Cannot start the process that creates the embedded database: ${err.message}`,
          ),
        );
      });
      child.on('exit', (code, signal) => {
        clearTimeout(timer);
        resolve({ code, signal, timedOut });
      });
    },
  ).catch((err: unknown) => {
    fs.rmSync(temp, { recursive: true, force: true });
    throw err;
  });
  if (outcome.code !== 0 || !pgliteFolderExists(temp)) {
    fs.rmSync(temp, { recursive: true, force: true });
    const why = outcome.timedOut
      ? `it did not finish in ${Math.round(timeoutMs / 1000)} s`
      : outcome.signal
        ? `it was ended by ${outcome.signal}`
        : `it exited with code ${outcome.code}`;
    const said = stderr.trim();
    throw new PgliteCreateError(
      `Creating the embedded database in ${pgdata} failed: ${why}${said ? `: ${said}` : ''}`,
    );
  }
  fs.renameSync(temp, pgdata);
}
