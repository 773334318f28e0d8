import { siteBase } from '../../lib/site-origin.js';
import type { Change } from '@bvdb/contract';
import type { Config } from '../../config.js';
import type { DbOrTx } from '../../db/client.js';
import { notFound } from '../../lib/app-error.js';
import { exportNotice } from '../../lib/export-notice.js';
import type { ChangeLog } from '../../lib/kept-by-changes.js';
import { mapInTurns } from '../../lib/loop-turns.js';
import { findAnalyte, findAnalytesByIds } from '../analytes/index.js';
import { findReferenceTitles } from '../references/index.js';
import { renderAtom, type AtomEntry } from './changes-atom.js';
import { presentChange } from './changes.presenter.js';
import { changeSummary, changeTitle, type ChangeNames } from './changes-text.js';
import * as repo from './changes.repository.js';
import { ReleaseNotes, type NotesHeading } from './changes-notes.js';

/** How many of the latest changes an Atom feed carries. */
export const ATOM_ENTRIES = 50;

const SITE = 'EFLM Biological Variation Database';

/**
 * One page of the feed after `since`, in commit order (decision 056): `next_cursor` is the last
 * change's cursor, or `since` when nothing is new, so a poller always passes back what it got.
 */
export async function readChanges(db: DbOrTx, since: number, limit: number) {
  const rows = await repo.listChanges(db, { since, limit: limit + 1 });
  const page = rows.slice(0, limit);
  return {
    data: page.map(presentChange),
    next_cursor: String(page.at(-1)?.change.cursor ?? since),
    has_more: rows.length > limit,
  };
}

/** The names the entries' titles use: measurands by id, references by id, estimates by their versions. */
async function namesOf(db: DbOrTx, rows: repo.ChangeWithVersions[]): Promise<ChangeNames> {
  const analyteIds = [
    ...new Set(rows.flatMap((r) => (r.change.analyteId === null ? [] : [r.change.analyteId]))),
  ];
  const referenceIds = [
    ...new Set(rows.filter((r) => r.change.entity === 'reference').map((r) => r.change.entityId)),
  ];
  const [analytes, references] = await Promise.all([
    findAnalytesByIds(db, analyteIds),
    findReferenceTitles(db, referenceIds),
  ]);
  const measurand = new Map(analytes.map((a) => [a.id, a.displayName]));
  const reference = new Map(references.map((r) => [r.id, r.title]));
  const estimate = new Map(rows.map((r) => [String(r.change.cursor), r.to?.name ?? r.from?.name]));
  return {
    measurand: (id) => measurand.get(id),
    reference: (id) => reference.get(id),
    estimate: (c: Change) => estimate.get(c.cursor),
  };
}

function entryOf(c: Change, names: ChangeNames, base: string): AtomEntry {
  const page = c.entity === 'reference' ? `/references/${c.id}` : `/analytes/${c.measurand_id ?? c.id}`;
  return {
    id: `tag:bvdb,2026:change:${c.cursor}`,
    title: changeTitle(c, names),
    updated: new Date(c.at),
    link: `${base}${page}`,
    category: c.entity,
    summary: changeSummary(c, names),
  };
}

/**
 * The Atom feed of the latest changes, newest first: of the whole database, or of one measurand
 * (its estimates, datasets and record; 404 for a measurand that is not there). Links are absolute:
 * under PUBLIC_URL, else under the request's origin.
 */
export async function buildChangesAtom(
  db: DbOrTx,
  config: Pick<Config, 'PUBLIC_URL' | 'DATA_USE_NOTICE' | 'CITATION' | 'DATA_LICENCE'>,
  origin: string,
  analyteId?: number,
): Promise<string> {
  const analyte = analyteId === undefined ? undefined : await findAnalyte(db, analyteId);
  if (analyteId !== undefined && !analyte) throw notFound(`Measurand ${analyteId}`);
  const rows = await repo.listChanges(db, { limit: ATOM_ENTRIES, analyteId, newestFirst: true });
  const names = await namesOf(db, rows);
  const base = siteBase(config, origin);
  const entries = rows.map((r) => entryOf(presentChange(r), names, base));
  const notice = exportNotice(config);
  return renderAtom(
    analyte
      ? {
          id: `tag:bvdb,2026:measurand:${analyte.id}:changes`,
          title: `${analyte.displayName}: changes in the ${SITE}`,
          alternate: `${base}/analytes/${analyte.id}`,
          self: `${base}/analytes/${analyte.id}/changes.atom`,
          author: SITE,
          rights: notice.licence,
          entries,
        }
      : {
          id: 'tag:bvdb,2026:changes',
          title: `Changes in the ${SITE}`,
          alternate: `${base}/`,
          self: `${base}/changes.atom`,
          author: SITE,
          rights: notice.licence,
          entries,
        },
  );
}

/** The feed's latest cursor: what a release made now covers (decision 058). */
export const latestChangeCursor = (db: DbOrTx) => repo.latestCursor(db);

/** Whether the feed has a change after `cursor` (the monthly release is made only then). */
export async function hasChangesAfter(db: DbOrTx, cursor: number): Promise<boolean> {
  return (await repo.listChanges(db, { since: cursor, limit: 1 })).length > 0;
}

/** Changes per query when the release notes read the feed. */
const NOTES_PAGE = 250;

/** The release notes of the changes after `after` up to `upTo` (decision 058), in Markdown. */
export async function buildReleaseNotes(
  db: DbOrTx,
  heading: NotesHeading,
  after: number,
  upTo: number,
): Promise<string> {
  const rows: repo.ChangeWithVersions[] = [];
  // Pages of 250 with the event loop free between them: a first release at 100× the demo data
  // reads tens of thousands of changes with their estimate versions, on this thread with the
  // embedded database (a page of a thousand held it about half a second).
  for (let since = after; ;) {
    const page = await repo.listChanges(db, { since, until: upTo, limit: NOTES_PAGE });
    rows.push(...page);
    if (page.length < NOTES_PAGE) break;
    since = page.at(-1)!.change.cursor;
    await new Promise((resolve) => setImmediate(resolve));
  }
  // Presented and grouped a hundred at a time with the loop let go between: all at once held it
  // 100–200 ms at 100× on a slow machine (issue 44.1).
  const changes = await mapInTurns(rows, presentChange, 100);
  const notes = new ReleaseNotes(heading, await namesOf(db, rows));
  await mapInTurns(changes, (c) => notes.add(c), 500);
  return await notes.render();
}

/** The change feed's log as kept indexes read it (decision 066). */
export const changeLogOf = (db: DbOrTx): ChangeLog<ChangedRecord> => ({
  latestCursor: () => repo.latestCursor(db),
  since: (since, limit) => changedRecordsSince(db, since, limit),
});

/** One record a committed change touched (decision 066): what a kept index reads again. */
export interface ChangedRecord {
  entity: 'estimate' | 'dataset' | 'reference' | 'measurand';
  entityId: number;
  /** The measurand it belongs to (for a dataset, the one it belongs to after the change). */
  analyteId: number | null;
}

/**
 * The records changed after `since` (commit order, decision 056) and the cursor to pass next time,
 * or `undefined` when more than `limit` changed (an import, a bulk upload): the caller then reads
 * everything again, which costs less than reading that many records one by one.
 */
export async function changedRecordsSince(
  db: DbOrTx,
  since: number,
  limit: number,
): Promise<{ cursor: number; changes: ChangedRecord[] } | undefined> {
  const rows = await repo.listChangedRecords(db, since, limit + 1);
  if (rows.length > limit) return undefined;
  return {
    cursor: rows.at(-1)?.cursor ?? since,
    changes: rows.map((r) => ({
      entity: r.entity as ChangedRecord['entity'],
      entityId: r.entityId,
      analyteId: r.analyteId,
    })),
  };
}
