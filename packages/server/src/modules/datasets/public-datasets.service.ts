import type { DbOrTx } from '../../db/client.js';
import { notFound } from '../../lib/app-error.js';
import type { ChangeLog } from '../../lib/kept-by-changes.js';
import type { DataScope, ResponseCache } from '../../lib/response-cache.js';
import type { ChangedRecord } from '../changes/index.js';
import * as repo from './datasets.repository.js';

/** What a published dataset's public shapes read: its own row, its reference, measurand and lookups. */
const ROW_SCOPES: readonly DataScope[] = ['datasets', 'references', 'analytes', 'lookups'];
const INDEX_SCOPES: readonly DataScope[] = ['datasets'];
/** What a kept row reads beside its own dataset. */
const SHARED_SCOPES: readonly DataScope[] = ['references', 'analytes', 'lookups'];
/** A change there makes every kept row stale (the change log does not name lookups). */
const LOOKUP_SCOPES: readonly DataScope[] = ['lookups'];
/** Past this many logged changes since the kept rows' cursor, they are all read again. */
const LOG_LIMIT = 500;
/**
 * Rows fetched in one query when many requests miss at once; such queries run one at a time. Fifty
 * first pages at 100× the demo miss 5,000 rows: ten queries of 500 answered together by
 * PostgreSQL's pool had their rows mapped back to back, holding the event loop 290 ms (issue 44.1).
 */
const LOAD_CHUNK = 250;
/**
 * Rows read in one step of the background fill: a request waits at most one step. 500, not 100: a
 * read's fixed cost (planning the lookups' joins, five statements) made a row cost twice as much in
 * steps of 100 (0.69 against 0.36 ms a row on PGlite at 100× the demo; decision 061), so the fill
 * of 20,200 rows ends in about half the time, while one step stays under the 1× figure of a page.
 */
const FILL_CHUNK = 500;

interface Index {
  stamp: number;
  ids: Int32Array;
  analyteIds: Int32Array;
  updatedAt: Float64Array;
  /** Each dataset's row version (`xmin`), to keep the rows a write did not touch (decision 057). */
  versions: string[];
}

/** Where `id` is in the index's ascending ids, or -1. */
function positionOf(ids: Int32Array, id: number): number {
  let lo = 0;
  let hi = ids.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const at = ids[mid]!;
    if (at === id) return mid;
    if (at < id) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** What the background fill hands the routes after each step (see the constructor). */
export type PrepareStep = (read: repo.DatasetRow[], stretch: (repo.DatasetRow | undefined)[]) => void;

export interface PublicPageFilter {
  limit: number;
  offset: number;
  updatedSince?: Date;
  analyteId?: number;
}

/**
 * The published catalogue as anonymous callers read it, one record or one page at a time, without
 * asking the database again for what it already said (issue 14; decision 033).
 * - An index of the published ids (with measurand and last change) answers totals and finds a page's
 *   ids: no COUNT, no ORDER BY … OFFSET over the table. It is rebuilt once per datasets generation.
 * - Rows are kept, up to `maxRows` (least recently used dropped first), while nothing they read has
 *   changed; any write to datasets, references, measurands or lookups makes them stale.
 * - Rows missing at the same moment are fetched together: fifty requests for fifty records cost one
 *   query, not fifty.
 * - After a start or a change, the first anonymous read starts filling the kept rows in the
 *   background (`prefill`), FILL_CHUNK rows a step, resting twice as long as each step took: a
 *   first-time page then finds its rows in memory, also at 100× the demo data (issue 26, point 4;
 *   decision 049).
 * Signed-in callers (who see unpublished data) never come here; they read the database directly.
 */
export class PublicDatasets {
  private index: Index | null = null;
  private indexBuild: Promise<Index> | null = null;
  private rows = new Map<number, repo.DatasetRow>();
  /** The row version each kept row was read at. */
  private rowVersions = new Map<number, string>();
  private rowsStamp = -1;
  /** The shared scopes' stamp when the kept rows were last known current. */
  private rowsSharedStamp = -1;
  /** The lookups' stamp then: when it moves, every kept row goes. */
  private rowsLookupsStamp = -1;
  /**
   * The change log's cursor read before the earliest read of a kept row (null: none kept yet):
   * the references and measurands changed after it are what may make a kept row stale.
   */
  private rowsCursor: number | null = null;
  /** Kept rows being checked against a new index after a write (one check per row stamp). */
  private adopting: { stamp: number; done: Promise<void> } | null = null;
  /** Rows kept across writes by their row version, and dropped (tests, benches). */
  readonly adoption = { kept: 0, dropped: 0 };
  private wanted = new Map<
    number,
    { resolve: (row: repo.DatasetRow | undefined) => void; reject: (e: unknown) => void }[]
  >();
  private flushQueued = false;
  /** The last chunk of missing rows being read: the next one starts when it ends. */
  private loading: Promise<void> = Promise.resolve();
  /** The row stamp the background fill last started for (-1: none yet). */
  private fillStamp = -1;
  private filling: Promise<void> | null = null;
  private closed = false;
  /**
   * Filling at full pace, resting only for the requests queued between steps: the start's warm-up
   * while `/readyz` waits for it (decision 072). Otherwise the fill rests twice as long as a step.
   */
  private warming = false;
  /** How far the warm-up has come: published rows in the index it fills from (0: not read yet). */
  private warmTotal = 0;

  constructor(
    private readonly db: DbOrTx,
    private readonly cache: ResponseCache,
    private readonly maxRows: number,
    private readonly prefill = false,
    /**
     * Runs on each step of the background fill, within it (so within its share of the event loop),
     * with the rows the step read and the kept rows of its stretch of the index in id order, the one
     * before it first (undefined where none is kept): the routes make the rows' page fragments there
     * (decision 065) and have each chained to the one before it (decision 107).
     */
    private readonly prepare: PrepareStep = () => {},
    /**
     * The change feed's log (decision 066): with it, a change to a reference or a measurand drops
     * only the kept rows that show it (decision 072); without it, every kept row, as before.
     */
    private readonly log?: ChangeLog<ChangedRecord>,
  ) {}

  /** Published rows kept now (what the background fill has reached, or reads have). */
  get keptRows(): number {
    return this.rowsStamp === this.cache.stampOf(ROW_SCOPES) ? this.rows.size : 0;
  }

  /**
   * Starts filling the kept rows for the current data, unless a fill for it already ran or runs.
   * Called by every anonymous read, so a start or a write is followed by a fill only once
   * somebody reads the public catalogue.
   */
  fillInBackground(): void {
    if (!this.prefill || this.closed || this.maxRows === 0) return;
    const stamp = this.cache.stampOf(ROW_SCOPES);
    if (this.fillStamp === stamp) return;
    this.fillStamp = stamp;
    const previous = this.filling ?? Promise.resolve();
    const run: Promise<void> = previous
      .then(() => this.fill(stamp))
      .catch(() => {
        // The database is away or closing: the next read starts again.
        if (this.fillStamp === stamp) this.fillStamp = -1;
      })
      .finally(() => {
        if (this.filling === run) this.filling = null;
      });
    this.filling = run;
  }

  /** Stops the fill (the app is closing); resolves when no step is running. */
  async close(): Promise<void> {
    this.closed = true;
    await this.filling;
  }

  /**
   * Fills every kept row now, at full pace: what a start does before `/readyz` says ready, so the
   * first pages a load balancer sends are answered from kept rows also at 100× the demo data
   * (issue 26, point 4; decision 072). Resolves when the fill is over (or has nothing to do);
   * `relax()` returns the fill to its resting pace earlier (the readiness wait gave up).
   */
  async warmUp(): Promise<void> {
    if (!this.prefill || this.closed || this.maxRows === 0) return;
    this.warming = true;
    try {
      // A write during the warm-up (the start's own recompute, a curator) stops the fill of the
      // older data: fill again for the newer, until one fill saw the data it started for, the
      // readiness wait gave up, or a fill failed (the database is away: reads fill when it is back).
      for (;;) {
        this.fillInBackground();
        await this.settled();
        const stamp = this.cache.stampOf(ROW_SCOPES);
        if (!this.warming || this.closed || this.fillStamp === -1 || this.fillStamp === stamp) break;
      }
    } finally {
      this.warming = false;
    }
  }

  /** The fill rests again as it does after a write (the readiness wait is over). */
  relax(): void {
    this.warming = false;
  }

  /** The warm-up's progress: kept rows of the published rows it fills (null: not warming up). */
  get warmUpProgress(): { kept: number; total: number } | null {
    if (!this.warming) return null;
    return { kept: Math.min(this.keptRows, this.warmTotal), total: this.warmTotal };
  }

  /** Tells when the fill for the current data is over (tests, benches). */
  async settled(): Promise<void> {
    while (this.filling) await this.filling;
  }

  private async fill(stamp: number): Promise<void> {
    const current = () => !this.closed && this.cache.stampOf(ROW_SCOPES) === stamp;
    if (!current()) return;
    // The rows kept before the write first: a stale one is not taken for a kept one below.
    await this.upToDate();
    const index = await this.currentIndex();
    this.warmTotal = Math.min(index.ids.length, this.maxRows);
    for (let at = 0; at < index.ids.length && current(); at += FILL_CHUNK) {
      if (this.rowsStamp === stamp && this.rows.size >= this.maxRows) return;
      const missing: number[] = [];
      for (const id of index.ids.subarray(at, at + FILL_CHUNK)) if (!this.rows.has(id)) missing.push(id);
      if (missing.length === 0) continue;
      const started = performance.now();
      const read = (await this.many(missing, false)).filter((row) => row !== undefined);
      const stretch = Array.from(index.ids.subarray(Math.max(0, at - 1), at + FILL_CHUNK), (id) =>
        this.rows.get(id),
      );
      this.prepare(read, stretch);
      // Rest twice as long as the step took: the fill takes at most a third of the event loop. While
      // warming up (not ready yet), only let the requests that came in meanwhile through.
      const spent = performance.now() - started;
      if (this.warming) await new Promise((r) => setImmediate(r));
      else await new Promise((r) => setTimeout(r, Math.max(1, 2 * spent)));
    }
  }

  /** One published dataset, or undefined. */
  async one(id: number): Promise<repo.DatasetRow | undefined> {
    this.fillInBackground();
    const [row] = await this.many([id]);
    return row;
  }

  /** A page in id order and the total of the filter. */
  async page(f: PublicPageFilter): Promise<{ rows: repo.DatasetRow[]; total: number }> {
    this.fillInBackground();
    const index = await this.currentIndex();
    const since = f.updatedSince?.getTime();
    if (f.analyteId === undefined && since === undefined) {
      // Unfiltered (most pages): the page is a slice of the index, not a walk over 20,000 ids.
      const rows = await this.many(Array.from(index.ids.subarray(f.offset, f.offset + f.limit)));
      return { rows: rows.filter((r): r is repo.DatasetRow => r !== undefined), total: index.ids.length };
    }
    const matching: number[] = [];
    let total = 0;
    for (let i = 0; i < index.ids.length; i++) {
      if (f.analyteId !== undefined && index.analyteIds[i] !== f.analyteId) continue;
      if (since !== undefined && index.updatedAt[i]! < since) continue;
      if (total >= f.offset && matching.length < f.limit) matching.push(index.ids[i]!);
      total++;
    }
    const rows = await this.many(matching);
    // A dataset unpublished or deleted since the index was read is left out, never shown.
    return { rows: rows.filter((r): r is repo.DatasetRow => r !== undefined), total };
  }

  private async currentIndex(): Promise<Index> {
    const stamp = this.cache.stampOf(INDEX_SCOPES);
    if (this.index?.stamp === stamp) return this.index;
    if (this.indexBuild) {
      const building = await this.indexBuild;
      if (building.stamp === stamp) return building;
    }
    const build = (async () => {
      try {
        const entries = await repo.listPublishedDatasetIndex(this.db);
        const index: Index = {
          stamp,
          ids: Int32Array.from(entries, (e) => e.id),
          analyteIds: Int32Array.from(entries, (e) => e.analyteId),
          updatedAt: Float64Array.from(entries, (e) => e.updatedAt.getTime()),
          versions: entries.map((e) => e.version),
        };
        // Built across a write: handed to this caller, not kept.
        if (this.cache.stampOf(INDEX_SCOPES) === stamp) this.index = index;
        return index;
      } finally {
        this.indexBuild = null;
      }
    })();
    this.indexBuild = build;
    return build;
  }

  /**
   * Brings the kept rows up to the current data. A row stays if the new index shows it at the row
   * version it was read at (a write that changed one dataset costs one index read, not a refill of
   * the catalogue; decision 057) and — when a reference or a measurand changed — neither its
   * reference nor its measurand is among the records the change log names after the kept rows'
   * cursor (decision 072: a curator's edit of one measurand keeps the other measurands' rows). When
   * a lookup changed, the log cannot say or holds too much, every kept row goes (decision 033).
   */
  private adopt(): Promise<void> | null {
    const stamp = this.cache.stampOf(ROW_SCOPES);
    if (this.rowsStamp === stamp) return null;
    if (this.adopting?.stamp === stamp) return this.adopting.done;
    const shared = this.cache.stampOf(SHARED_SCOPES);
    const lookups = this.cache.stampOf(LOOKUP_SCOPES);
    const sharedMoved = this.rowsSharedStamp !== shared;
    const since = this.rowsCursor;
    if (
      this.rows.size === 0 ||
      (sharedMoved && (!this.log || since === null || this.rowsLookupsStamp !== lookups))
    ) {
      this.dropRows(stamp, shared);
      return null;
    }
    const done = (async () => {
      try {
        // The log first, then the index: a change committed in between is applied twice, never
        // missed (decision 066's order).
        const read = sharedMoved ? await this.log!.since(since!, LOG_LIMIT) : undefined;
        if (sharedMoved && !read) {
          this.dropRows(stamp, shared); // an import, a bulk upload: read again whole
          return;
        }
        const index = await this.currentIndex();
        // Moved again meanwhile: the next read checks against a newer index.
        if (this.cache.stampOf(ROW_SCOPES) !== stamp || index.stamp !== this.cache.stampOf(INDEX_SCOPES))
          return;
        const references = new Set<number>();
        const measurands = new Set<number>();
        for (const c of read?.changes ?? []) {
          if (c.entity === 'reference') references.add(c.entityId);
          else if (c.entity === 'measurand') measurands.add(c.entityId);
        }
        for (const [id, version] of this.rowVersions) {
          const at = positionOf(index.ids, id);
          const row = this.rows.get(id);
          const shown =
            row !== undefined && !references.has(row.spec.referenceId) && !measurands.has(row.spec.analyteId);
          if (at >= 0 && index.versions[at] === version && shown) {
            this.adoption.kept++;
          } else {
            this.rows.delete(id);
            this.rowVersions.delete(id);
            this.adoption.dropped++;
          }
        }
        this.rowsStamp = stamp;
        this.rowsSharedStamp = shared;
        this.rowsLookupsStamp = lookups;
        if (read) this.rowsCursor = Math.max(since!, read.cursor);
      } catch {
        this.dropRows(stamp, shared); // the database is away: start again from nothing
      } finally {
        if (this.adopting?.stamp === stamp) this.adopting = null;
      }
    })();
    this.adopting = { stamp, done };
    return done;
  }

  /** The kept rows checked against the current data: what is left of them is current. */
  private async upToDate(): Promise<void> {
    const adopting = this.adopt();
    if (adopting) await adopting;
    const stamp = this.cache.stampOf(ROW_SCOPES);
    // Still behind (the data moved again while adopting, or the check failed): drop and read afresh.
    if (this.rowsStamp !== stamp) this.dropRows(stamp, this.cache.stampOf(SHARED_SCOPES));
  }

  private dropRows(stamp: number, shared: number): void {
    this.adoption.dropped += this.rows.size;
    this.rows.clear();
    this.rowVersions.clear();
    this.rowsStamp = stamp;
    this.rowsSharedStamp = shared;
    this.rowsLookupsStamp = this.cache.stampOf(LOOKUP_SCOPES);
    this.rowsCursor = null;
  }

  /** Rows by id, in the order asked (undefined where none is published), kept or fetched together. */
  private async many(ids: number[], touch = true): Promise<(repo.DatasetRow | undefined)[]> {
    await this.upToDate();
    return Promise.all(
      ids.map((id) => {
        const kept = this.rows.get(id);
        if (kept) {
          if (!touch) return Promise.resolve(kept);
          // Most recently used last: Map keeps insertion order.
          this.rows.delete(id);
          this.rows.set(id, kept);
          return Promise.resolve(kept);
        }
        return new Promise<repo.DatasetRow | undefined>((resolve, reject) => {
          const waiting = this.wanted.get(id);
          if (waiting) waiting.push({ resolve, reject });
          else this.wanted.set(id, [{ resolve, reject }]);
          this.queueFlush();
        });
      }),
    );
  }

  /** Fetches every row wanted during this turn of the event loop, in chunks of LOAD_CHUNK. */
  private queueFlush(): void {
    if (this.flushQueued) return;
    this.flushQueued = true;
    setImmediate(() => {
      this.flushQueued = false;
      const wanted = this.wanted;
      this.wanted = new Map();
      const ids = [...wanted.keys()];
      for (let at = 0; at < ids.length; at += LOAD_CHUNK) {
        const chunk = ids.slice(at, at + LOAD_CHUNK);
        // `load` settles every caller itself and never rejects.
        this.loading = this.loading.then(() => this.load(chunk, wanted));
      }
    });
  }

  private async load(
    ids: number[],
    wanted: Map<
      number,
      { resolve: (row: repo.DatasetRow | undefined) => void; reject: (e: unknown) => void }[]
    >,
  ): Promise<void> {
    const stamp = this.cache.stampOf(ROW_SCOPES);
    try {
      // The log's cursor before the rows: a change to their reference or measurand committed after
      // it is in the log a later adoption reads (decision 072). Read only while the kept rows have
      // none: once they do, a cursor read now could only be later, and the smallest one counts.
      const cursor = this.log && this.rowsCursor === null ? await this.log.latestCursor() : null;
      const { rows, versions } = await repo.findPublishedDatasetsWithVersions(this.db, ids);
      const found = new Map(rows.map((r) => [r.spec.id, r]));
      // Rows read across a write are handed to their callers but not kept.
      const keep = this.cache.stampOf(ROW_SCOPES) === stamp && this.rowsStamp === stamp;
      if (keep && cursor !== null && rows.length > 0)
        this.rowsCursor = this.rowsCursor === null ? cursor : Math.min(this.rowsCursor, cursor);
      for (const id of ids) {
        const row = found.get(id);
        if (row && keep) this.remember(id, row, versions.get(id)!);
        for (const w of wanted.get(id) ?? []) w.resolve(row);
      }
    } catch (err) {
      for (const id of ids) for (const w of wanted.get(id) ?? []) w.reject(err);
    }
  }

  private remember(id: number, row: repo.DatasetRow, version: string): void {
    this.rows.set(id, row);
    this.rowVersions.set(id, version);
    if (this.rows.size > this.maxRows) {
      const oldest = this.rows.keys().next().value;
      if (oldest !== undefined) {
        this.rows.delete(oldest);
        this.rowVersions.delete(oldest);
      }
    }
  }
}

/**
 * One page of datasets in id order with its total: anonymous callers through the kept public
 * catalogue, signed-in callers (unpublished data too) from the database. The caller has adopted
 * other processes' writes first (syncGeneration), as for every cached read.
 */
export async function datasetPage(
  db: DbOrTx,
  publicDatasets: PublicDatasets,
  signedIn: boolean,
  f: PublicPageFilter,
): Promise<{ rows: repo.DatasetRow[]; total: number }> {
  if (!signedIn) return publicDatasets.page(f);
  const filter = {
    signedIn,
    ...(f.updatedSince ? { updatedSince: f.updatedSince } : {}),
    ...(f.analyteId !== undefined ? { analyteId: f.analyteId } : {}),
  };
  const [rows, total] = await Promise.all([
    repo.listDatasets(db, { ...filter, order: 'id', limit: f.limit, offset: f.offset }),
    repo.countDatasets(db, filter),
  ]);
  return { rows, total };
}

/** One dataset: anonymous callers through the kept public catalogue, signed-in ones from the database. */
const datasetById = (
  db: DbOrTx,
  publicDatasets: PublicDatasets,
  signedIn: boolean,
  id: number,
): Promise<repo.DatasetRow | undefined> =>
  signedIn ? repo.findVisibleDataset(db, id, true) : publicDatasets.one(id);

/** The same, or a 404 naming the dataset (both one-record routes, legacy and v1). */
export async function datasetByIdOr404(
  db: DbOrTx,
  publicDatasets: PublicDatasets,
  signedIn: boolean,
  id: number,
): Promise<repo.DatasetRow> {
  const row = await datasetById(db, publicDatasets, signedIn, id);
  if (!row) throw notFound(`Dataset ${id}`);
  return row;
}
