import type { ImportConsequence } from '@bvdb/contract';
import type { DbOrTx } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import type { Row } from './backup-file.js';
import * as repo from './backup.repository.js';

export interface Consequence {
  code: ImportConsequence;
  message: string;
}

/** Who imports through the page: the account a replace must not remove unasked. */
export interface Importer {
  id: number;
  email: string;
}

/**
 * What a replace does that the request must name before it is done (issue 43.2, decision 082):
 * removing the importing administrator's own account (a file whose users leave it out), and
 * deleting appraisals that were submitted (an assessor's work, which no one can redo blind).
 * `after` holds the rows of each table the import changes as they are after it (import-plan.ts).
 */
export async function consequencesOf(
  db: DbOrTx,
  after: ReadonlyMap<string, Row[]>,
  importer: Importer | undefined,
): Promise<Consequence[]> {
  const out: Consequence[] = [];
  const users = after.get('users');
  if (importer && users) {
    // Rows the file brings carry their e-mail; rows kept from the database, their id only.
    const kept = users.some(
      (u) => u.id === importer.id && (u.email === undefined || u.email === importer.email),
    );
    if (!kept) {
      out.push({
        code: 'delete_own_account',
        message: `The import removes your own account (${importer.email}): the file's users do not include it, so you are signed out and cannot sign in with it again.`,
      });
    }
  }
  const appraisals = after.get('appraisals');
  if (appraisals) {
    const left = new Set(appraisals.map((a) => a.id));
    const lost = (await repo.readColumns(db, 'appraisals', ['id', 'submitted_at'])).filter(
      (a) => a.submitted_at != null && !left.has(a.id),
    ).length;
    if (lost > 0) {
      out.push({
        code: 'delete_submitted_appraisals',
        message: `The import deletes ${lost} submitted appraisal${lost === 1 ? '' : 's'}, which the file does not bring back.`,
      });
    }
  }
  return out;
}

/** Refuses (422) an import whose consequences the request did not name in `confirm`. */
export function assertConfirmed(consequences: Consequence[], confirmed: readonly string[]): void {
  const missing = consequences.filter((c) => !confirmed.includes(c.code));
  if (missing.length === 0) return;
  throw new AppError(
    'unprocessable',
    `${missing.map((c) => c.message).join(' ')} Send confirm=${missing.map((c) => c.code).join(',')} ` +
      'to import anyway (the page asks you). Nothing was imported.',
  );
}
