import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { afterAll, describe, expect, it } from 'vitest';
import { acquireFolderLock, FolderLockedError } from './folder-lock.js';

const require = createRequire(import.meta.url);
const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'bvdb-lock-'));

afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

describe('data folder lock', () => {
  it('refuses a second holder while the first holds it, and frees it on release', async () => {
    const first = await acquireFolderLock(folder);
    await expect(acquireFolderLock(folder)).rejects.toBeInstanceOf(FolderLockedError);
    await first.release();
    const again = await acquireFolderLock(folder);
    await again.release();
  });

  it('refuses a second process on the same folder', async () => {
    const held = await acquireFolderLock(folder);
    try {
      // A separate Node process tries the same folder through the same library.
      const script = `
        const lockfile = require(${JSON.stringify(require.resolve('proper-lockfile'))});
        lockfile.lock(${JSON.stringify(path.join(folder, '.bvdb'))}, { realpath: false, lockfilePath: ${JSON.stringify(path.join(folder, '.bvdb.lock'))}, stale: 15000 })
          .then(() => process.exit(0), (e) => { console.log(e.code); process.exit(3); });`;
      const child = spawn(process.execPath, ['-e', script]);
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(code).toBe(3);
      expect(out.trim()).toBe('ELOCKED');
    } finally {
      await held.release();
    }
  });
});
