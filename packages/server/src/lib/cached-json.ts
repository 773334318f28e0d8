import fs from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { CatalogueFile } from './catalogue-files.js';
import { DOWNLOAD_SLICE_BYTES, isDownloadSize, type DownloadBudget } from './download-budget.js';
import { readChangeSignal } from './app-state.repository.js';
import { answerWithItems, type JsonFragment } from './contract-json.js';
import { offerFastRead, offerKeptAnswer } from './fast-reads.js';
import { isPrepared, type PreparedAnswer } from './prepared-answers.js';
import { varyOn } from './vary.js';
import { nextTurn } from './loop-turns.js';
import {
  acceptedEncodings,
  type ContentEncoding,
  DATA_SCOPES,
  encodeAhead,
  encodeQuickly,
  encodedBody,
  preferredEncoding,
  type Built,
  type DataScope,
  type Entry,
  plainBody,
  type Pool,
  upgrades,
} from './response-cache.js';

const SHARED_CHECK_MS = 1000;
/** While the change listener is connected, notifications bring changes; the poll is only a backstop. */
const SHARED_CHECK_LISTENING_MS = 30_000;

/**
 * Other processes on one PostgreSQL may have written: adopt the shared generation. Their
 * notifications do it within milliseconds (db/change-listener.ts); a read polls the counters at
 * most once a second while the listener is down, every 30 s while it is up.
 */
export async function syncGeneration(request: FastifyRequest): Promise<void> {
  const { cache, database, changes } = request.server.deps;
  if (database.kind !== 'postgres') return;
  if (!cache.shouldCheck(Date.now(), sharedCheckEvery(changes))) return;
  const signal = await readChangeSignal(database.db);
  cache.observe(signal.generations, signal.previousReleaseWrites);
}

/**
 * Reads the shared counters now (PostgreSQL): the start's warm-up does, so the rows it keeps are
 * stamped with the data every process sees, not dropped by the first read's check (decision 072).
 */
export async function syncGenerationNow(deps: FastifyInstance['deps']): Promise<void> {
  if (deps.database.kind !== 'postgres') return;
  const signal = await readChangeSignal(deps.database.db);
  deps.cache.observe(signal.generations, signal.previousReleaseWrites);
}

const sharedCheckEvery = (changes: FastifyInstance['deps']['changes']): number =>
  changes?.listening ? SHARED_CHECK_LISTENING_MS : SHARED_CHECK_MS;

/**
 * Whether the next kept read must first read the shared counters (`syncGeneration`): the fast read
 * path (plugins/fast-reads.ts) then leaves the request to the full path, which does.
 */
export function sharedCheckDue(deps: FastifyInstance['deps'], now: number): boolean {
  return deps.database.kind === 'postgres' && deps.cache.checkDue(now, sharedCheckEvery(deps.changes));
}

/**
 * JSON with object keys in sorted order, so `?b=1&a=2` and `?a=2&b=1` name one answer. Params and
 * queries are mostly flat objects of strings and numbers: those are written without a replacer
 * (the same text, a tenth of the cost; decision 089).
 */
function stableJson(value: unknown): string {
  if (value && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Date)) {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record);
    let flat = true;
    let sorted = true;
    for (let i = 0; i < keys.length && flat; i++) {
      const v = record[keys[i]!];
      flat = v === null || typeof v !== 'object';
      if (i > 0 && keys[i - 1]! > keys[i]!) sorted = false;
    }
    if (flat) {
      if (sorted) return JSON.stringify(record);
      const ordered: Record<string, unknown> = {};
      for (const k of keys.sort()) ordered[k] = record[k];
      return JSON.stringify(ordered);
    }
  }
  return stableJsonDeep(value);
}

function stableJsonDeep(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Date)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/**
 * The cache key of a route's answer: the route and its validated params and query, not the raw URL.
 * The contract's schemas drop unknown query parameters, so `?utm_source=x` or a random cache-buster
 * reaches the same answer instead of forcing a fresh build (issue 17, point 8).
 */
export function cacheKeyOf(request: FastifyRequest): string {
  const { url: route, schema } = request.routeOptions;
  if (!route) return request.url;
  // A route without a query schema reads no query parameter at all.
  const query = schema?.querystring ? (request.query ?? {}) : {};
  return `${route} ${stableJson(request.params ?? {})} ${stableJson(query)}`;
}

/** Sends a cached entry: 304 when the client has it, else the body, pre-compressed when it is worth it. */
export function sendCachedEntry(
  request: FastifyRequest,
  reply: FastifyReply,
  entry: Entry,
  opts: {
    type: string;
    compress: boolean;
    cacheControl?: string;
    vary?: string;
    /** Downloads (exports) are sent within the shared download budget (decision 035). */
    budget?: DownloadBudget;
    /** The encoding whose copy is ready (`compressOffLoop`); else the client's preferred one. */
    encoding?: ContentEncoding;
  },
): FastifyReply {
  void reply
    .header('ETag', entry.etag)
    .header('Cache-Control', opts.cacheControl ?? 'public, max-age=0, must-revalidate');
  // Vary: Accept-Encoding only when the answer may be sent compressed (1 KB or more): a smaller one
  // is the same bytes whatever the client accepts (decision 089).
  const vary = opts.vary ?? (opts.compress && entry.length >= 1024 ? 'Accept-Encoding' : undefined);
  if (vary !== undefined) void varyOn(reply, vary);
  if (request.headers['if-none-match'] === entry.etag) return reply.status(304).send();
  void reply.type(opts.type);
  // A record whose gzip copy is being made in the background goes as built (decision 106).
  if (opts.compress && entry.compacting) sendAsBuilt(request);
  const encoding =
    opts.compress && entry.length >= 1024 && !entry.compacting
      ? (opts.encoding ?? preferredEncoding(request.headers['accept-encoding'], entry.length))
      : null;
  if (encoding) void reply.header('Content-Encoding', encoding);
  const body = encoding ? encodedBody(entry, encoding) : plainBody(entry);
  // A HEAD answer sends no body, so it spends none of the budget.
  if (!opts.budget || request.method === 'HEAD') return reply.send(body);
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  return reply.header('Content-Length', String(bytes.length)).send(opts.budget.body(bytes));
}

/**
 * This answer goes uncompressed whatever the client accepts: @fastify/compress would otherwise
 * compress it on the fly, on the loop. Its own way to be told is the request's `x-no-compression`
 * (Fastify's `request.headers` setter adds to the headers read, the client's stay as sent).
 */
function sendAsBuilt(request: FastifyRequest): void {
  request.headers = { 'x-no-compression': 'sent as built' };
}

/**
 * Public reads as files (spreadsheets): built once per data generation for anonymous callers, so
 * fifty downloads of one export cost one build, even when they arrive together. Signed-in callers
 * (unpublished data) get a fresh one.
 */
export async function cachedFile(
  request: FastifyRequest,
  reply: FastifyReply,
  opts: {
    type: string;
    compress: boolean;
    sameForEveryone?: boolean;
    scopes?: readonly DataScope[];
    /** What else the file depends on besides the route, params and query (a feed's origin). */
    keyExtra?: string;
  },
  build: () => Promise<{ bytes: Buffer; headers: Record<string, string> }>,
): Promise<FastifyReply> {
  const { cache, downloads } = request.server.deps;
  const personal = opts.sameForEveryone !== true && request.user != null;
  if (personal) {
    const file = await build();
    return reply
      .type(opts.type)
      .headers(file.headers)
      .header('Cache-Control', 'private, no-store')
      .header('Content-Length', String(file.bytes.length))
      .send(request.method === 'HEAD' ? file.bytes : downloads.body(file.bytes));
  }
  await syncGeneration(request);
  const key = opts.keyExtra === undefined ? cacheKeyOf(request) : `${cacheKeyOf(request)} ${opts.keyExtra}`;
  const { entry } = await cache.getOrBuild(key, opts.scopes ?? DATA_SCOPES, async () => {
    const file = await build();
    return { body: file.bytes, headers: file.headers };
  });
  void reply.headers(entry.headers);
  return sendCachedEntry(request, reply, entry, {
    type: opts.type,
    compress: opts.compress,
    cacheControl: 'no-cache',
    budget: downloads,
  });
}

/** `data` as the route's response schema writes it (the same bytes Fastify would send). */
export function serialiseFor(reply: FastifyReply, data: unknown): string {
  const serialised = reply.serialize(data);
  return typeof serialised === 'string'
    ? serialised
    : Buffer.from(serialised as ArrayBuffer).toString('utf8');
}

/**
 * Answers a public read from the response cache while the data it reads (`scopes`, every scope
 * unless said) has not changed, with an ETag so clients can revalidate with If-None-Match. A missing
 * answer is computed once however many ask for it at the same time. Signed-in callers see
 * unpublished data: never cached.
 */
export async function cachedJson<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  compute: () => Promise<T>,
  opts: { varyByUser?: boolean; scopes?: readonly DataScope[]; pool?: Pool } = {},
): Promise<FastifyReply> {
  const personal = opts.varyByUser !== false && request.user != null;
  const serialise = (data: T): string => serialiseFor(reply, data);
  if (personal) {
    return reply
      .type('application/json; charset=utf-8')
      .header('Cache-Control', 'private, no-store')
      .send(serialise(await compute()));
  }
  return cachedText(request, reply, async () => serialise(await compute()), opts);
}

/**
 * `cachedJson` for an answer whose text the caller makes, already checked against the contract
 * (a record from its kept fragment, decision 089), or gives as made ahead (its gzip copy and ETag,
 * decision 113). Public readers only: the caller answers a signed-in reader itself.
 */
export async function cachedText(
  request: FastifyRequest,
  reply: FastifyReply,
  make: () => Promise<string | Buffer | PreparedAnswer>,
  opts: { scopes?: readonly DataScope[]; pool?: Pool } = {},
): Promise<FastifyReply> {
  const { cache } = request.server.deps;
  await syncGeneration(request);
  const key = cacheKeyOf(request);
  const { entry, kept } = await cache.getOrBuild(
    key,
    opts.scopes ?? DATA_SCOPES,
    async (): Promise<Built> => {
      const made = await make();
      // Made ahead (decision 113): kept as its gzip copy, with its ETag, as a compacted record is.
      if (!isPrepared(made)) return { body: made };
      return { body: null, compressed: { gzip: made.gzip, length: made.length }, etag: made.etag };
    },
    opts.pool,
  );
  return sendKeptJson(request, reply, key, entry, kept);
}

/** A kept JSON answer, its compressed copy made as `compressOffLoop` decides, offered to the fast path. */
async function sendKeptJson(
  request: FastifyRequest,
  reply: FastifyReply,
  key: string,
  entry: Entry,
  kept: boolean,
): Promise<FastifyReply> {
  // Replayed once it is sent with its kept copies, not as built while its copy is made.
  if (kept && !entry.compacting) offerFastRead(request, request.server.deps.cache, key, entry);
  const again = entry.sent === true;
  entry.sent = true;
  const encoding = await compressOffLoop(request, entry, again);
  return sendCachedEntry(request, reply, entry, {
    type: 'application/json; charset=utf-8',
    compress: true,
    ...(encoding ? { encoding } : {}),
  });
}

/**
 * Kept answers at least this large get their first copy in Node's thread pool (`encodeAhead`): a
 * whole-size page (a limit of 1000) or more. A page of 100 (~0.35 MB) is below it since decision
 * 104: its quick copy (brotli quality 1) costs the loop 0.25–0.5 ms, where handing it to the pool
 * cost the process more (0.5–0.6 ms) and, on a busy machine, the loop ~3 ms of wall time a page (the
 * woken pool thread took the core from it), which set the p99 of a pass of first asks.
 */
const COMPRESS_OFF_LOOP_FROM = 1024 * 1024;
/** Kept answers at least this large get a quick first copy on the loop (`encodeQuickly`). */
const QUICK_COPY_FROM = 8 * 1024;

/**
 * The compressed copy `sendCachedEntry` will send, made ready: its encoding, or undefined to let
 * `sendCachedEntry` choose. A copy made beforehand in an encoding the client takes (a page stitched
 * as gzip, decision 107) is sent rather than one made here. A very large answer's copy is made off
 * the event loop; a middling or page-sized one's first copy is a quick one made here (decisions 076,
 * 104). Once the answer is asked `again`, the kept settings' copy of the client's preferred encoding
 * is made in the background. Small answers are compressed where they are sent, with the kept
 * settings: a thread-pool round trip costs more than gzip of a few KB.
 */
async function compressOffLoop(
  request: FastifyRequest,
  entry: Entry,
  again: boolean,
): Promise<ContentEncoding | undefined> {
  if (entry.length < QUICK_COPY_FROM || entry.compacting || request.headers['if-none-match'] === entry.etag)
    return undefined;
  const acceptEncoding = request.headers['accept-encoding'];
  const encoding = preferredEncoding(acceptEncoding, entry.length);
  if (!encoding) return undefined;
  if (!entry.encoded[encoding] && entry.encoded.gzip && acceptedEncodings(acceptEncoding).has('gzip')) {
    if (again) upgrades.add(entry, encoding);
    return 'gzip';
  }
  if (entry.length < COMPRESS_OFF_LOOP_FROM) encodeQuickly(entry, encoding, again);
  else await encodeAhead(entry, encoding, again);
  return encoding;
}

/**
 * A public read whose answer is an envelope with an array of items last (a page of datasets), the
 * items' JSON made beforehand and kept with what they were made from (decision 065). Kept and sent
 * like `cachedJson`: the same bytes as the route's serialiser writes (the envelope is written by it,
 * each item was checked against the contract when its fragment was made), an ETag from the items'
 * digests instead of a hash of the whole body. A first-time page then costs a concatenation, not a
 * presentation, a check and a serialisation of every item.
 */
export async function cachedItemsJson(
  request: FastifyRequest,
  reply: FastifyReply,
  compute: () => Promise<{ envelope: object; items: readonly JsonFragment[] }>,
  opts: { scopes?: readonly DataScope[] } = {},
): Promise<FastifyReply> {
  const { cache } = request.server.deps;
  const made = async (stitch: boolean) => {
    // A first page made in a turn of its own: fifty asked at once do not hold the loop together.
    await nextTurn();
    const { envelope, items } = await compute();
    return answerWithItems((data) => serialiseFor(reply, data), envelope, items, stitch);
  };
  if (request.user != null) {
    const { body } = await made(false);
    return reply
      .type('application/json; charset=utf-8')
      .header('Cache-Control', 'private, no-store')
      .send(body!);
  }
  // Kept as its stitched gzip copy where the items have their pieces (decision 107).
  const make = async (): Promise<Built> => {
    const { body, etag, stitched } = await made(true);
    return stitched ? { body: null, etag, stitched } : { body, etag };
  };
  await syncGeneration(request);
  const key = cacheKeyOf(request);
  const { entry, kept } = await cache.getOrBuild(key, opts.scopes ?? DATA_SCOPES, make);
  return sendKeptJson(request, reply, key, entry, kept);
}

/**
 * A whole-catalogue answer for public callers (decision 039): built once per change of the data it
 * reads (`scopes`), from `produce` (its text, a piece at a time), kept compressed and sent like a
 * static file: ETag/304, Content-Length, HEAD, gzip/br by Accept-Encoding (identity otherwise),
 * within the shared download budget. The caller keeps signed-in readers (unpublished data) apart.
 */
export async function cachedCatalogue(
  request: FastifyRequest,
  reply: FastifyReply,
  opts: {
    type: string;
    compress: boolean;
    scopes?: readonly DataScope[];
    cacheControl?: string;
    headers?: Record<string, string>;
  },
  produce: () => AsyncIterable<string | Buffer>,
): Promise<FastifyReply> {
  const { catalogue } = request.server.deps;
  await syncGeneration(request);
  const key = cacheKeyOf(request);
  const fileOpts = {
    scopes: opts.scopes ?? DATA_SCOPES,
    compress: opts.compress,
    headers: opts.headers ?? {},
  };
  const get = () => catalogue.get(key, fileOpts, produce);
  let file: CatalogueFile;
  if (request.method === 'GET') {
    // The ask that starts the build is sent the text as it is made (decision 085); the others
    // (and a HEAD) wait for the kept file as before.
    const found = await catalogue.getOrStream(key, fileOpts, produce);
    if ('live' in found) return sendLiveBuild(request, reply, found.live, opts);
    file = found.file;
  } else {
    file = await get();
  }
  let body = await openBody(request, file);
  if (body === null) {
    // Its copy on disk went away (removed by hand, or swept): build it again, once.
    catalogue.forget(key);
    file = await get();
    body = await openBody(request, file);
    if (body === null) throw new Error(`The kept copy of ${key} is missing`);
  }
  const { catalogue: files } = request.server.deps;
  const kept = file;
  offerKeptAnswer(request, {
    current: () => files.isCurrent(key, kept),
    etag: file.etag,
    // Only copies held in memory are replayed (a large one is read from disk for each download).
    bodyFor: (encoding) => {
      const copy = file.copies[encoding === 'br' || encoding === 'gzip' ? encoding : 'identity'];
      return (encoding === undefined || copy !== file.copies.identity) && copy?.bytes ? copy.bytes : null;
    },
    budgeted: true,
  });
  return sendCatalogueBody(request, reply, file, body, opts);
}

/**
 * The text of a whole-catalogue build as it is made, to the ask that started it (decision 085):
 * no ETag or length yet (the file's come with the kept copy), compressed here with a flush after
 * the first pieces so the first bytes leave at once (as `sendJsonStream` does).
 */
function sendLiveBuild(
  request: FastifyRequest,
  reply: FastifyReply,
  live: Readable,
  opts: { type: string; compress: boolean; cacheControl?: string; headers?: Record<string, string> },
): FastifyReply {
  void reply
    .headers(opts.headers ?? {})
    .header('Cache-Control', opts.cacheControl ?? 'public, max-age=0, must-revalidate')
    .type(opts.type);
  void varyOn(reply, 'Accept-Encoding');
  const encoding = opts.compress ? preferredEncoding(request.headers['accept-encoding']) : null;
  if (!encoding) return reply.send(live);
  const zip =
    encoding === 'br'
      ? zlib.createBrotliCompress({ params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } })
      : zlib.createGzip();
  let pieces = 0;
  live.pipe(zip);
  live.on('data', () => {
    if (++pieces <= 2) zip.flush();
  });
  live.on('error', (err) => zip.destroy(err));
  return reply.header('Content-Encoding', encoding).send(zip);
}

interface OpenBody {
  encoding: ContentEncoding | null;
  size: number;
  bytes?: Buffer;
  handle?: FileHandle;
}

/** The copy to send for this request, opened if it is on disk (null: it is missing). */
async function openBody(request: FastifyRequest, file: CatalogueFile): Promise<OpenBody | null> {
  const identity = file.copies.identity!;
  const encoding =
    file.copies.gzip && file.copies.br
      ? preferredEncoding(request.headers['accept-encoding'], identity.size)
      : null;
  const copy = file.copies[encoding ?? 'identity']!;
  if (copy.bytes) return { encoding, size: copy.size, bytes: copy.bytes };
  // A HEAD or a 304 reads nothing; still the copy must exist.
  const handle = await fs.promises.open(copy.path!, 'r').catch(() => null);
  if (!handle) return null;
  return { encoding, size: copy.size, handle };
}

function sendCatalogueBody(
  request: FastifyRequest,
  reply: FastifyReply,
  file: CatalogueFile,
  body: OpenBody,
  opts: { type: string; cacheControl?: string },
): FastifyReply {
  void reply
    .headers(file.headers)
    .header('ETag', file.etag)
    .header('Cache-Control', opts.cacheControl ?? 'public, max-age=0, must-revalidate');
  void varyOn(reply, 'Accept-Encoding');
  const noBody = request.method === 'HEAD' || request.headers['if-none-match'] === file.etag;
  if (noBody && body.handle) void body.handle.close();
  if (request.headers['if-none-match'] === file.etag) return reply.status(304).send();
  void reply.type(opts.type).header('Content-Length', String(body.size));
  if (body.encoding) void reply.header('Content-Encoding', body.encoding);
  // A HEAD answer sends no body, so it spends none of the budget (Fastify keeps our Content-Length
  // for a stream and drops the stream).
  if (request.method === 'HEAD') return reply.send(body.bytes ?? Readable.from([]));
  const { downloads } = request.server.deps;
  if (body.bytes && !isDownloadSize(body.size)) return reply.send(body.bytes);
  if (body.bytes) return reply.send(downloads.body(body.bytes));
  const stream = body.handle!.createReadStream({ highWaterMark: DOWNLOAD_SLICE_BYTES });
  return reply.send(downloads.pace(stream));
}
