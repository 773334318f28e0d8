import { AppError } from '../../lib/app-error.js';
import { describeProblem, type FileProblem } from './backup-file.js';

/** Problems found in the file before anything was written: a 400 naming the first, all in `fields`. */
export function refuse(problems: FileProblem[]): AppError {
  const more =
    problems.length > 1 ? ` (and ${problems.length - 1} more problem${problems.length > 2 ? 's' : ''})` : '';
  return new AppError('bad_request', `${describeProblem(problems[0]!)}${more}. Nothing was imported.`, {
    fields: problems.map((p) => ({
      path:
        [p.table, p.row !== undefined ? `row ${p.row}` : undefined, p.field].filter(Boolean).join('.') ||
        'file',
      message: describeProblem(p),
    })),
  });
}

/** A constraint the database itself enforced (a rule no check above knew): a 400 naming it. */
export function databaseRefusal(err: unknown): AppError | undefined {
  for (let e: unknown = err; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const pg = e as { code?: unknown; message?: string; detail?: string; table?: string };
    if (typeof pg.code === 'string' && /^2[23]/.test(pg.code)) {
      const where = pg.table ? ` in ${pg.table}` : '';
      return new AppError(
        'bad_request',
        `The database refused the file${where}: ${pg.message}${pg.detail ? ` (${pg.detail})` : ''}. Nothing was imported.`,
      );
    }
  }
  return undefined;
}

export function existingMessage(existing: {
  analytes: number;
  references: number;
  bv_specifications: number;
}): string {
  return (
    `The database already holds ${existing.analytes} measurands, ${existing.references} references and ` +
    `${existing.bv_specifications} datasets. Replace them all with the file (--replace), or merge the file ` +
    'into them (--merge: records with the same ids are overwritten). Nothing was imported.'
  );
}

/** A file that left rows out would, loaded in place of a database, lose them: a merge only (decision 038). */
export function refuseWithheld(withheld: Record<string, number>): AppError {
  const rows = Object.entries(withheld).map(([table, n]) => `${n} ${table}`);
  return new AppError(
    'bad_request',
    `This backup was made by an assessor of an open appraisal round and withheld rows they may not ` +
      `read (${rows.join(', ')}), so it is partial: it may be merged (mode merge, --merge) but not ` +
      'loaded in place of a database. Make the backup as an administrator who assesses no open round, ' +
      'or with npm run export -- --full. Nothing was imported.',
  );
}
