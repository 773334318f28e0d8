import zlib from 'node:zlib';
import type { Config } from '../config.js';

import { BackgroundDrain } from './background-drain.js';
import { compressKeptInBackground } from './compress-upgrade-pool.js';
import { contentEtag } from './content-etag.js';
import { compressKept, ownSize, type ContentEncoding } from './kept-compression.js';
import { RecordCompaction } from './record-compaction.js';

export type { ContentEncoding } from './kept-compression.js';

export interface Entry {
  /** The scopes the answer reads, and the sum of their generations when it was built. */
  scopes: readonly DataScope[];
  stamp: number;
  /**
   * The answer as built; null once a kept single record keeps only its gzip copy (plainBody gives it
   * back): a record pool of tens of thousands of answers then holds ~1.5 KB each instead of ~5.
   */
  body: string | Buffer | null;
  /** The length of the answer as built (characters for text), kept when the body is not. */
  length: number;
  etag: string;
  /** Headers that belong to the answer (e.g. a download's file name). */
  headers: Record<string, string>;
  /** Compressed copies, made once on first demand: a cached answer is never compressed twice. */
  encoded: Partial<Record<ContentEncoding, Buffer>>;
  /**
   * Encodings whose copy in `encoded` is a quick first one (`encodeAhead`), to be replaced by the
   * kept settings' copy in the background (decision 069).
   */
  quick?: Partial<Record<ContentEncoding, true>>;
  /** Set when the cache let the entry go: its quick copies are no longer worth upgrading. */
  dropped?: boolean;
  /**
   * A kept record whose gzip copy is being made in the background (lib/record-compaction.ts,
   * decision 106): sent as built until it is there.
   */
  compacting?: true;
  /** Set once the answer was sent: a later ask is asked again, worth the kept settings' copy. */
  sent?: true;
}

/** The answer as built, unzipped from its gzip copy where only that is kept. */
export function plainBody(entry: Entry): string | Buffer {
  return entry.body ?? zlib.gunzipSync(entry.encoded.gzip!);
}

/**
 * A first ask's copy (decision 069): brotli quality 1 took 0.5 ms for a page of 100 datasets
 * (~0.35 MB) where quality 6 took 4–18 ms, for ~30% more bytes; gzip level 1 about 1.4 against
 * 3–15 ms. Fifty distinct first-time pages at once then cost the thread pool a fraction of what
 * they did, and each kept copy is made again with the settings above once the pool is free.
 */
const QUICK_BROTLI = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } };
const QUICK_GZIP = { level: 1 };

/** `plain` compressed here, on the event loop, quickly or with the kept settings. */
function compressNow(plain: string | Buffer, encoding: ContentEncoding, quick: boolean): Buffer {
  if (!quick) return compressKept(plain, encoding);
  return ownSize(
    encoding === 'br' ? zlib.brotliCompressSync(plain, QUICK_BROTLI) : zlib.gzipSync(plain, QUICK_GZIP),
  );
}

/** The body of an entry in the encoding the client prefers, compressed once and kept. */
export function encodedBody(entry: Entry, encoding: ContentEncoding): Buffer {
  const cached = entry.encoded[encoding];
  if (cached) return cached;
  const made = compressNow(plainBody(entry), encoding, false);
  entry.encoded[encoding] = made;
  return made;
}

/** Compressions running off the event loop, per entry and encoding (one each however many ask). */
const compressing = new WeakMap<Entry, Partial<Record<ContentEncoding, Promise<Buffer>>>>();

/** Quick copies being made now, and upgrades waiting for there to be none. */
let quickRunning = 0;
const quickIdle: (() => void)[] = [];

/**
 * The output buffer of a compression in the pool: a quarter of the input (JSON compresses to a tenth
 * or less), 16 KB at least (zlib's default). With the default, a page of 100 (~0.4 MB, ~60 KB
 * compressed quickly) went to the pool and back four times or more, each trip a wake-up of a pool
 * thread and a callback on the loop; now once (decision 104).
 */
const MAX_POOL_CHUNK = 4 * 1024 * 1024;
const poolChunkOf = (plain: string | Buffer): number =>
  Math.min(MAX_POOL_CHUNK, Math.max(16 * 1024, Math.ceil(plain.length / 4)));

/** `plain` compressed quickly in Node's thread pool (a first ask's copy). */
function quickInPool(plain: string | Buffer, encoding: ContentEncoding): Promise<Buffer> {
  const chunkSize = poolChunkOf(plain);
  return new Promise<Buffer>((resolve, reject) => {
    const done = (err: Error | null, out: Buffer) => (err ? reject(err) : resolve(out));
    if (encoding === 'br') zlib.brotliCompress(plain, { ...QUICK_BROTLI, chunkSize }, done);
    else zlib.gzip(plain, { ...QUICK_GZIP, chunkSize }, done);
  });
}

/**
 * Makes the entry's compressed copy in Node's thread pool, not on the event loop (decision 065: a
 * first-time page of 100 spent ~6 ms of the loop in brotli). The first copy is a quick one
 * (decision 069), sent until `upgrades` has made it again with the kept settings (those of
 * `encodedBody`): every copy unpacks to the same bytes and carries the entry's ETag. The upgrade is
 * queued when the answer is asked again (decision 104, as `encodeQuickly` does since decision 076):
 * a bulk pass asks most pages once, and the kept settings' copy of a page asked once was never sent,
 * yet took the pool ~10 ms of brotli quality 6 while the pass's first asks waited for the cores.
 * Resolves once `encodedBody` has a copy.
 */
export async function encodeAhead(entry: Entry, encoding: ContentEncoding, again = true): Promise<void> {
  if (entry.encoded[encoding]) {
    if (again && entry.quick?.[encoding]) upgrades.add(entry, encoding);
    return;
  }
  const running = compressing.get(entry) ?? {};
  compressing.set(entry, running);
  let made = running[encoding];
  if (!made) {
    quickRunning++;
    made = quickInPool(plainBody(entry), encoding).finally(() => {
      if (--quickRunning === 0) for (const wake of quickIdle.splice(0)) wake();
    });
    running[encoding] = made;
  }
  const out = await made;
  delete running[encoding];
  if (entry.encoded[encoding]) return;
  entry.encoded[encoding] = out;
  (entry.quick ??= {})[encoding] = true;
}

/**
 * The entry's compressed copy for an answer of tens of KB (decision 076) up to a page of 100 datasets
 * (decision 104: brotli quality 1 of ~0.35 MB is 0.25–0.5 ms): the first ask gets a quick copy made
 * here on the event loop; an answer asked again gets the kept settings' copy made in the background
 * (`upgrades`), sent from then on. Fifty measurands found by a search (~14 KB) took brotli
 * quality 6 ~0.2 ms of the loop where quality 1 takes ~0.04 for ~14% more bytes, and starting a
 * compression in the pool costs the loop about as much as the quick copy: most queries are asked
 * once, and for those the better copy would never be sent.
 */
export function encodeQuickly(entry: Entry, encoding: ContentEncoding, again = true): void {
  if (entry.quick?.[encoding]) {
    if (again) upgrades.add(entry, encoding);
    return;
  }
  if (entry.encoded[encoding]) return;
  entry.encoded[encoding] = compressNow(plainBody(entry), encoding, true);
  (entry.quick ??= {})[encoding] = true;
}

/**
 * Replaces quick copies with copies made with the kept settings, one at a time, only while no quick
 * copy is being made, in a thread of background priority (lib/compress-upgrade-pool.ts, decision
 * 104): first asks go first, the upgrades use what the cores have left. An entry the cache let go
 * meanwhile is skipped.
 */
export class CompressionUpgrades {
  /** Weakly held: a queue behind a long pass over first-time pages keeps no dropped answer alive. */
  private queue: [WeakRef<Entry>, ContentEncoding][] = [];
  /** The entries and encodings in the queue: one upgrade each however many ask meanwhile. */
  private queued = new WeakMap<Entry, Partial<Record<ContentEncoding, true>>>();
  private readonly drainer = new BackgroundDrain(
    () => this.drain(),
    () => this.queue.length > 0,
  );

  add(entry: Entry, encoding: ContentEncoding): void {
    const queued = this.queued.get(entry) ?? {};
    if (queued[encoding]) return;
    queued[encoding] = true;
    this.queued.set(entry, queued);
    this.queue.push([new WeakRef(entry), encoding]);
    this.drainer.start();
  }

  /** Resolves when every queued upgrade is done (tests, benches). */
  idle(): Promise<void> {
    return this.drainer.idle();
  }

  private async drain(): Promise<void> {
    for (let next = this.queue.shift(); next; next = this.queue.shift()) {
      // Let the first asks of this turn start their quick copies before the pool gets an upgrade.
      await new Promise((resolve) => setImmediate(resolve));
      while (quickRunning > 0) await new Promise<void>((resolve) => quickIdle.push(resolve));
      const [ref, encoding] = next;
      const entry = ref.deref();
      // Done already, or not wanted any more. A copy not made at all is made (a page stitched as
      // gzip is asked by a client that prefers br, decision 107).
      if (!entry || entry.dropped || (entry.encoded[encoding] && !entry.quick?.[encoding])) continue;
      try {
        // In a thread of background priority (decision 104), not Node's pool at the loop's.
        // A page kept as its gzip copy only is unpacked in the thread, not here (decision 107).
        const better = await compressKeptInBackground(
          entry.body ?? { gzipped: entry.encoded.gzip! },
          encoding,
        );
        entry.encoded[encoding] = better;
        delete entry.quick?.[encoding];
      } catch {
        // The quick copy stays: it is a correct answer, only a larger one.
      }
    }
  }
}

export const upgrades = new CompressionUpgrades();

/** The records pool's gzip copies, made in the background (decision 106). */
export const compaction = new RecordCompaction();

/** The content codings an Accept-Encoding header takes (those refused with q=0 left out). */
export function acceptedEncodings(acceptEncoding: string | undefined): Set<string> {
  return new Set(
    (acceptEncoding ?? '')
      .split(',')
      .map((part) => part.trim().split(';'))
      .filter(([name, q]) => name && (!q || Number(q.trim().replace(/^q=/, '')) > 0))
      .map(([name]) => name!.trim().toLowerCase()),
  );
}

/** Below this size gzip is preferred even where br is taken (see preferredEncoding). */
const SMALL_BODY = 8 * 1024;

/**
 * br when the client takes it, else gzip, else none (q=0 refusals honoured). For a small body
 * (`size` under 8 KB, e.g. one dataset) gzip comes first when taken: brotli's fixed cost per call is
 * about twice gzip's there (110 vs 58 µs for a 4 KB dataset) for 6% fewer bytes, and a pass over
 * twenty thousand records pays it twenty thousand times.
 */
export function preferredEncoding(
  acceptEncoding: string | undefined,
  size = Infinity,
): ContentEncoding | null {
  if (!acceptEncoding) return null;
  const accepted = acceptedEncodings(acceptEncoding);
  if (size < SMALL_BODY && accepted.has('gzip')) return 'gzip';
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return null;
}

/**
 * What a write changes and an answer reads, by kind of record. Generations are kept per scope: a
 * write bumps only the scopes it changes, and an answer is stale only when a scope it reads moved.
 * - `analytes`: measurands (names, search index);
 * - `references`: references and their article files;
 * - `datasets`: datasets and everything they carry (diseases, flags);
 * - `metas`: meta-analysis results;
 * - `lookups`: matrices, units, states of well-being, diseases, ethnicities, methods.
 * Answers read every scope unless they say otherwise; writes change every scope unless they say
 * otherwise; a write that changes no public data (a mailing-list subscriber) names none.
 */
export const DATA_SCOPES = ['analytes', 'references', 'datasets', 'metas', 'lookups'] as const;
export type DataScope = (typeof DATA_SCOPES)[number];
export type Generations = Record<DataScope, number>;

/** Kept records at least this long keep only their gzip copy (small ones are not worth it). */
const COMPACT_FROM = 1024;

/** Where a kept answer lives: `records` for one record by id, `answers` for everything else. */
export type Pool = 'answers' | 'records';

export interface Built {
  /** The answer; null when it comes as its gzip copy only (`stitched`). */
  body: string | Buffer | null;
  headers?: Record<string, string>;
  /** False for an answer sent once but not kept (e.g. a page whose reads failed). */
  keep?: boolean;
  /** The ETag when the builder has one (a content hash made more cheaply); else the body's hash. */
  etag?: string;
  /**
   * A page stitched from its items' pieces (decision 107): its gzip copy, kept as a quick one (made
   * again with the kept settings once the page is asked again), and its length unpacked. With it the
   * body is null and the ETag given: the page is unpacked only where its bytes are needed.
   */
  stitched?: { gzip: Buffer; length: number };
  /**
   * The answer's gzip copy with the kept settings, made ahead (a public record's, by the background
   * fill, decision 113), and its length unpacked. With it the body is null and the ETag given.
   */
  compressed?: { gzip: Buffer; length: number };
}

/**
 * Serialised answers of public reads, kept until the data they read changes. Writes in this process
 * bump their scopes' generations at once; other processes (several servers on one PostgreSQL) see the
 * change when `observe` gets the shared counters, at most once per `maxStalenessMs`. A missing answer
 * is built once: requests that want it meanwhile wait for that build instead of starting their own.
 */
export class ResponseCache {
  private generations: Generations = { analytes: 0, references: 0, datasets: 0, metas: 0, lookups: 0 };
  /** The shared counters as last seen (null: never read, so the first read counts as a change). */
  private sharedSeen: Record<DataScope, number | null> = {
    analytes: null,
    references: null,
    datasets: null,
    metas: null,
    lookups: null,
  };
  /**
   * Two pools, each dropping its least recently kept answer when full: lists and pages in one, single
   * records (one dataset by id) in the other, so a pass over twenty thousand records never pushes the
   * pages out (issue 14).
   */
  /** Writes by processes of the previous release as last seen (null: never read). */
  private previousReleaseSeen: number | null = null;
  private entries = new Map<string, Entry>();
  private records = new Map<string, Entry>();
  private building = new Map<string, Promise<unknown>>();
  private lastCheck = 0;
  /** Reads answered from a kept entry, and reads that had to build one (lib/metrics.ts). */
  hits = 0;
  misses = 0;

  constructor(
    private readonly maxEntries = 2000,
    private readonly maxRecords = 5000,
  ) {}

  /** The read cache of a process: 2000 answers, and twice READ_CACHE_ROWS records. */
  static forConfig(config: Pick<Config, 'READ_CACHE_ROWS'>): ResponseCache {
    return new ResponseCache(2000, 2 * config.READ_CACHE_ROWS);
  }

  /** How many answers it keeps at most, both pools together (the fast read path keeps as many replays). */
  get capacity(): number {
    return this.maxEntries + this.maxRecords;
  }

  /** A number that changes whenever any scope does (for in-memory indexes built from the data). */
  get currentGeneration(): number {
    return this.stampOf(DATA_SCOPES);
  }

  /** Generations only grow, so their sum over `scopes` changes exactly when one of them does. */
  stampOf(scopes: readonly DataScope[]): number {
    let sum = 0;
    for (const scope of scopes) sum += this.generations[scope];
    return sum;
  }

  /**
   * A committed write changed `scopes` (every scope when not said); `shared` are the counters the
   * write left in the database, remembered so that `observe` does not drop the cache a second time.
   * Our own generations only ever grow (a stamp never comes back), whatever the shared ones do.
   */
  invalidate(scopes: readonly DataScope[] = DATA_SCOPES, shared?: Partial<Generations>): void {
    for (const scope of scopes) {
      this.generations[scope] += 1;
      const seen = shared?.[scope];
      if (seen !== undefined) this.sharedSeen[scope] = seen;
    }
    if (scopes.length > 0) this.dropStale();
  }

  /**
   * Counters read from the database: the scopes another process moved are stale here too. A write
   * by a process of the previous release (`previousReleaseWrites` moved) did not say which scopes
   * it changed: every one is stale (lib/app-state.repository.ts).
   */
  observe(shared: Generations, previousReleaseWrites?: number): void {
    const before = this.previousReleaseSeen;
    if (previousReleaseWrites !== undefined) this.previousReleaseSeen = previousReleaseWrites;
    if (before !== null && previousReleaseWrites !== undefined && previousReleaseWrites !== before) {
      this.invalidate(DATA_SCOPES, shared);
      return;
    }
    const moved = DATA_SCOPES.filter((scope) => shared[scope] !== this.sharedSeen[scope]);
    if (moved.length > 0) this.invalidate(moved, shared);
  }

  shouldCheck(now: number, maxStalenessMs: number): boolean {
    if (!this.checkDue(now, maxStalenessMs)) return false;
    this.lastCheck = now;
    return true;
  }

  /** Whether `shouldCheck` would say yes now, without taking the turn (the fast read path asks). */
  checkDue(now: number, maxStalenessMs: number): boolean {
    return now - this.lastCheck >= maxStalenessMs;
  }

  private isFresh(entry: Entry): boolean {
    return entry.stamp === this.stampOf(entry.scopes);
  }

  private dropStale(): void {
    for (const pool of [this.entries, this.records])
      for (const [key, entry] of pool)
        if (!this.isFresh(entry)) {
          pool.delete(key);
          entry.dropped = true;
        }
  }

  get(key: string): Entry | undefined {
    const entry = this.entries.get(key) ?? this.records.get(key);
    return entry && this.isFresh(entry) ? entry : undefined;
  }

  set(
    key: string,
    body: string | Buffer,
    headers: Record<string, string> = {},
    scopes: readonly DataScope[] = DATA_SCOPES,
    stamp = this.stampOf(scopes),
  ): Entry {
    const entry = makeEntry(body, headers, scopes, stamp);
    this.keep(key, entry);
    return entry;
  }

  private keep(key: string, entry: Entry, pool: Pool = 'answers'): void {
    const [entries, max] =
      pool === 'records' ? [this.records, this.maxRecords] : [this.entries, this.maxEntries];
    if (pool === 'records' && entry.body !== null && entry.length >= COMPACT_FROM) compaction.add(entry);
    const replaced = entries.get(key);
    if (replaced && replaced !== entry) replaced.dropped = true;
    entries.delete(key);
    if (entries.size >= max) {
      const oldest = entries.keys().next().value;
      if (oldest !== undefined) {
        entries.get(oldest)!.dropped = true;
        entries.delete(oldest);
      }
    }
    entries.set(key, entry);
  }

  /**
   * The kept answer for `key`, or one built now. Concurrent callers for the same key and the same
   * data share one build. The entry is stamped with the generations seen when the build started, so
   * a write committed during the build leaves it stale rather than passing old data off as new.
   */
  async getOrBuild(
    key: string,
    scopes: readonly DataScope[],
    build: () => Promise<Built>,
    pool: Pool = 'answers',
  ): Promise<{ entry: Entry; kept: boolean }> {
    const kept = this.get(key);
    if (kept) {
      this.hits++;
      return { entry: kept, kept: true };
    }
    this.misses++;
    const { value } = await this.share(key, scopes, async (stamp) => {
      const built = await build();
      const entry = entryOf(built, scopes, stamp);
      // Stale already when a write committed during the build: given to its waiters, not kept.
      const keep = built.keep !== false && this.isFresh(entry);
      if (keep) this.keep(key, entry, pool);
      else entry.dropped = true;
      return { entry, kept: keep };
    });
    return value;
  }

  /**
   * One build of `key` for the data as it is now (`scopes`' generations): callers that ask while it
   * runs wait for it instead of starting their own. `fresh` is false when a write committed during
   * the build (the value is then given to its waiters, never kept). Used for answers kept here and
   * for whole-catalogue files kept on disk (lib/catalogue-files.ts).
   */
  async share<T>(
    key: string,
    scopes: readonly DataScope[],
    build: (stamp: number) => Promise<T>,
  ): Promise<{ value: T; stamp: number; fresh: boolean }> {
    const stamp = this.stampOf(scopes);
    const flightKey = `${stamp}\u0000${key}`;
    const inFlight = this.building.get(flightKey) as
      Promise<{ value: T; stamp: number; fresh: boolean }> | undefined;
    if (inFlight) return inFlight;
    const flight = (async () => {
      try {
        const value = await build(stamp);
        return { value, stamp, fresh: stamp === this.stampOf(scopes) };
      } finally {
        this.building.delete(flightKey);
      }
    })();
    this.building.set(flightKey, flight);
    return flight;
  }
}

function entryOf(built: Built, scopes: readonly DataScope[], stamp: number): Entry {
  if (built.body !== null) return makeEntry(built.body, built.headers ?? {}, scopes, stamp, built.etag);
  const copy = built.compressed ?? built.stitched;
  if (!copy || built.etag === undefined)
    throw new Error('An answer without its body needs its compressed or stitched copy and its ETag');
  return {
    scopes,
    stamp,
    body: null,
    length: copy.length,
    etag: built.etag,
    headers: built.headers ?? {},
    encoded: { gzip: copy.gzip },
    // A stitched copy is a quick one, made again with the kept settings once asked again (decision 107).
    ...(built.compressed ? {} : { quick: { gzip: true as const } }),
  };
}

function makeEntry(
  body: string | Buffer,
  headers: Record<string, string>,
  scopes: readonly DataScope[],
  stamp: number,
  etag = contentEtag(body),
): Entry {
  return { scopes, stamp, body, length: body.length, etag, headers, encoded: {} };
}
