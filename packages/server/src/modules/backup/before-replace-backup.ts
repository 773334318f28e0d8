import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { exportDatabaseJson } from './backup.service.js';

/** `DATA_DIR/backups` (with DATABASE_URL too); a temporary folder under an in-memory database. */
export function backupFolderFor(config: Pick<Config, 'DATA_DIR' | 'dataDir'>): string {
  return config.DATA_DIR.startsWith('memory://')
    ? path.join(os.tmpdir(), `bvdb-memory-backups-${process.pid}`)
    : path.join(config.dataDir, 'backups');
}

/**
 * The database as it is, saved as a complete backup before a replace deletes anything (the
 * export's own code, one read snapshot). Written to a temporary name and renamed, so a file with
 * the final name is always whole. Returns the file's name in `folder`.
 */
export async function saveBackupBeforeReplace(db: Db, folder: string): Promise<string> {
  const chunks = await exportDatabaseJson(db, 'full', 'before a replace');
  await fs.promises.mkdir(folder, { recursive: true });
  const name = `bvdb-before-replace-${new Date().toISOString().replace(/:/g, '-')}.json`;
  const target = path.join(folder, name);
  const temporary = `${target}.${process.pid}.partial`;
  const handle = await fs.promises.open(temporary, 'w');
  try {
    for (const chunk of chunks) await handle.write(chunk);
    await handle.sync();
  } catch (err) {
    await handle.close();
    await fs.promises.rm(temporary, { force: true });
    throw err;
  }
  await handle.close();
  await fs.promises.rename(temporary, target);
  return name;
}
