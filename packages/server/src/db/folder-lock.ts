import fs from 'node:fs';
import path from 'node:path';
import lockfile from 'proper-lockfile';

export interface FolderLock {
  release(): Promise<void>;
}

export class FolderLockedError extends Error {
  constructor(public readonly folder: string) {
    super(
      `The data folder ${folder} is in use by another bvdb process. ` +
        'Stop that process, or start this one with another DATA_DIR or a DATABASE_URL.',
    );
  }
}

/**
 * PGlite has no locking between processes, so two servers on one folder would corrupt it. The lock
 * is a directory created atomically beside the data and refreshed while we run; a crashed holder's
 * lock goes stale and is taken over.
 */
export async function acquireFolderLock(folder: string): Promise<FolderLock> {
  const marker = path.join(folder, '.bvdb');
  if (!fs.existsSync(marker)) fs.writeFileSync(marker, 'bvdb data folder\n');
  try {
    const release = await lockfile.lock(marker, {
      stale: 15_000,
      update: 5_000,
      realpath: false,
      lockfilePath: path.join(folder, '.bvdb.lock'),
      onCompromised: (err) => {
        // Another process took the folder: continuing would risk two writers.
        console.error(`bvdb: lost the lock on ${folder}: ${err.message}`);
        process.exit(75);
      },
    });
    return { release: () => release().catch(() => undefined) };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ELOCKED') throw new FolderLockedError(folder);
    throw err;
  }
}
