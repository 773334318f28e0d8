import type { CrosswalkPreview } from '@bvdb/contract';
import { CROSSWALK_COLUMNS, LOINC_NOTICE } from '@bvdb/domain';
import type { DbOrTx } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import type { ServiceDeps } from '../../lib/service-deps.js';
import { isUniqueViolation, writeTransaction } from '../../lib/write-transaction.js';
import { recordAudit } from '../audit/index.js';
import * as repo from './measurand-codes.repository.js';
import { codesByMeasurand } from './measurand-codes.service.js';
import { planCrosswalk, readCrosswalkRows, type CrosswalkState } from './measurand-crosswalk.js';
import { bumpAnalyteVersion, lockAnalyteVersion } from './measurand-names.repository.js';

/** LOINC's notice as a header value: visible ASCII, the © and ® percent-encoded as in a URL. */
export const loincNoticeHeader = LOINC_NOTICE.replace(/[^\x20-\x7e]|%/gu, (c) => encodeURIComponent(c));

/** A cell a spreadsheet program would run as a formula is made inert text (as the other exports do). */
const neutralise = (s: string) => (/^[=+\-@\t\r]/.test(s) ? `'${s}` : s);
const csvCell = (v: string | null) => {
  const s = v === null ? '' : neutralise(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/**
 * Every measurand's codes as the crosswalk file (decision 093): RFC 4180 CSV, the header the import
 * reads, one line per code (another scale is another code, another line).
 */
export async function buildCrosswalkCsv(db: DbOrTx): Promise<string> {
  const lines = [CROSSWALK_COLUMNS.join(',')];
  for (const r of await repo.listCrosswalkRows(db))
    lines.push(
      [r.system, r.code, r.display, r.measurand, r.matrix, r.ucumUnit, r.source].map(csvCell).join(','),
    );
  return `${lines.join('\r\n')}\r\n`;
}

async function stateOf(db: DbOrTx): Promise<CrosswalkState> {
  const [codes, named] = await Promise.all([repo.listStoredCodes(db), repo.listNamedThings(db)]);
  return { codes, ...named };
}

/** What importing the file does, line by line; saves nothing. */
export async function previewCrosswalk(db: DbOrTx, text: string): Promise<CrosswalkPreview> {
  const rows = readCrosswalkRows(text);
  const { actions: _, ...preview } = planCrosswalk(rows, await stateOf(db));
  return preview;
}

/**
 * Applies a previewed file in one transaction (curators, decision 093): the measurands it names
 * locked, the plan made again and compared with the preview's, then each measurand's added and
 * changed codes written, its version moved on and the change in the audit trail.
 */
export async function importCrosswalk(
  deps: Pick<ServiceDeps, 'db' | 'cache'>,
  text: string,
  plan: string,
  userId: number,
) {
  const rows = readCrosswalkRows(text);
  try {
    return await writeTransaction(deps, async (tx) => {
      // Locked in id order before the plan is made: no one else changes these measurands' codes meanwhile.
      const named = await repo.listNamedThings(tx);
      const written = new Set(rows.map((r) => (r.cells[3] ?? '').trim().toLowerCase()));
      const ids = named.measurands
        .filter((m) => written.has(m.name.toLowerCase()))
        .map((m) => m.id)
        .sort((a, b) => a - b);
      for (const id of ids) await lockAnalyteVersion(tx, id);
      const made = planCrosswalk(rows, { codes: await repo.listStoredCodes(tx), ...named });
      if (made.plan !== plan)
        throw new AppError(
          'conflict',
          'The codes changed since your preview (or the file did); nothing was imported. Preview the file again.',
        );
      const byMeasurand = new Map<number, typeof made.actions>();
      for (const a of made.actions)
        byMeasurand.set(a.analyteId, [...(byMeasurand.get(a.analyteId) ?? []), a]);
      for (const [analyteId, actions] of [...byMeasurand].sort((a, b) => a[0] - b[0])) {
        const before = (await codesByMeasurand(tx, [analyteId])).get(analyteId) ?? [];
        for (const a of actions) {
          if (a.id === null) await repo.insertCode(tx, analyteId, a.values);
          else await repo.updateCode(tx, a.id, a.values);
        }
        await bumpAnalyteVersion(tx, analyteId);
        const after = (await codesByMeasurand(tx, [analyteId])).get(analyteId) ?? [];
        const described = (cs: typeof before) =>
          cs.map((c) => `${c.system}|${c.code} ${c.matrix ?? ''} ${c.ucum_unit ?? ''}`.trim());
        await recordAudit(tx, {
          userId,
          entity: 'measurand',
          entityId: analyteId,
          action: 'update',
          before: { codes: described(before) },
          after: { codes: described(after), via: 'crosswalk import' },
        });
      }
      return {
        counts: made.counts,
        measurand_ids: [...byMeasurand.keys()].sort((a, b) => a - b),
      };
    });
  } catch (err) {
    if (isUniqueViolation(err))
      throw new AppError(
        'conflict',
        'One of these codes was just given to a measurand; preview the file again',
      );
    throw err;
  }
}
