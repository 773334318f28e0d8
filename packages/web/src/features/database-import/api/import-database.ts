import { DATABASE_IMPORT_MAX_BYTES, importDatabase, type ImportMode } from '@bvdb/contract';
import { uploadFile } from '../../../lib/upload-file';
import { everyKey, useInvalidate } from '../../../lib/query-keys';

/** A whole-database file, previewed (dry run) or imported. */
export function importDatabaseCall(
  file: File,
  opts: { mode: ImportMode; dryRun: boolean; recompute: boolean; clearAbsent: boolean },
  csrfToken: string | null,
) {
  return uploadFile(importDatabase, file, {
    csrfToken,
    maxBytes: DATABASE_IMPORT_MAX_BYTES,
    tooLarge: `The file is too large (${DATABASE_IMPORT_MAX_BYTES / 1024 / 1024} MB at most): import it with npm run import on the server`,
    query: {
      mode: opts.mode,
      dry_run: opts.dryRun ? '1' : '0',
      recompute: opts.recompute ? '1' : '0',
      // Only a replace empties tables; the flag is left out otherwise.
      clear_absent: opts.mode === 'replace' && opts.clearAbsent ? '1' : undefined,
    },
  });
}

/** After an import is written: every read again (an import may replace every table). */
export const useInvalidateAfterDatabaseImport = () => useInvalidate(everyKey);
