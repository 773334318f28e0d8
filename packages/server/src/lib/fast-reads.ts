import http from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  type ContentEncoding,
  type Entry,
  plainBody,
  preferredEncoding,
  type ResponseCache,
  upgrades,
} from './response-cache.js';

/** The kept answer a request was given, offered to the fast path by the kept reads and the pages. */
export interface FastReadOffer {
  /** Whether the answer is still the one kept for its key (no write changed what it reads since). */
  current: () => boolean;
  etag: string;
  /** The bytes sent for a Content-Encoding (undefined: none), or null when they are not kept ones. */
  bodyFor: (encoding: unknown) => Buffer | null;
  /** Sent within the shared download budget (decision 035): a replay is too. */
  budgeted: boolean;
  /** The quick first copy sent for a Content-Encoding (decision 069), replayed until it is replaced. */
  quickFor?: (encoding: unknown) => QuickCopy | null;
}

/**
 * A quick first copy the fast path replays until the kept one is made (decision 108): a first-time
 * page at 100× the demo went the full way on its second, third… ask while its kept copy waited in
 * the background queue, ~5× the cost of a replay each.
 */
export interface QuickCopy {
  body: Buffer;
  /** The full path would now send other bytes (the kept copy, or the preferred encoding, is made). */
  outdated: () => boolean;
  /** What a second ask does on the full path: the kept copy is queued (once). */
  askedAgain: () => void;
}

/** A canned refusal (the 503 of a full password-hashing queue) and when it applies again. */
export interface RefusalOffer {
  applies: () => boolean;
  body: Buffer;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set when the answer is a kept public one that the fast path may replay (decision 041). */
    fastRead: FastReadOffer | null;
    /** Set when the answer is a refusal the fast path may replay while it `applies` (decision 041). */
    fastRefusal: RefusalOffer | null;
  }
}

/** Offers a refusal made before the body is read, the same for every anonymous caller of the route. */
export function offerRefusal(request: FastifyRequest, offer: RefusalOffer): void {
  request.fastRefusal = offer;
}

/** Offers a response-cache entry being sent to an anonymous reader (cachedJson, the pages). */
export function offerFastRead(
  request: FastifyRequest,
  cache: ResponseCache,
  cacheKey: string,
  entry: Entry,
): void {
  // The offer is kept with its replay: it holds the header it needs, never the request (~4 KB a key).
  const acceptEncoding = request.headers['accept-encoding'];
  request.fastRead = {
    current: () => cache.get(cacheKey) === entry,
    etag: entry.etag,
    bodyFor: (encoding) => bodySent(entry, encoding),
    budgeted: false,
    // The client's preferred encoding, read only when a quick copy is recorded (not on every offer).
    quickFor: (encoding) => quickSent(entry, encoding, preferredEncoding(acceptEncoding, entry.length)),
  };
}

/** Offers another kind of kept answer (a whole-catalogue file held in memory). */
export function offerKeptAnswer(request: FastifyRequest, offer: FastReadOffer): void {
  request.fastRead = offer;
}

/** One answer as the full path sent it: status, headers (all but the per-request ones), body. */
export interface Replay {
  status: number;
  /** The route pattern that answered it, for the request metrics (lib/metrics.ts). */
  route: string | undefined;
  /** Its headers as one flat name, value, name, value… list, made once: `writeHead` takes it as is. */
  flat: string[];
  body: Buffer | undefined;
  /** A quick first copy's replay (decision 108): ends once the full path would send other bytes. */
  outdated?: () => boolean;
  /** Told each time the quick copy is replayed (a second ask queues its kept copy). */
  askedAgain?: () => void;
}

/** Headers as `writeHead`'s flat list (no per-request object to build and walk). */
function flatHeaders(headers: http.OutgoingHttpHeaders): string[] {
  const flat: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const one of value) flat.push(name, one);
    else flat.push(name, String(value));
  }
  return flat;
}

/** What the full path answered to one raw URL and the request headers that may change the answer. */
export interface Kept {
  /** The raw URL and the varying headers it was recorded for ('' for one not sent). */
  url: string;
  varying: readonly string[];
  /** Both as one string: the bound's order (made only when recorded). */
  key: string;
  offer: FastReadOffer;
  /** The rate-limit class the request is counted in (plugins/rate-limits.ts). */
  cost: string;
  ok?: Replay;
  notModified?: Replay;
}

/**
 * The request headers the fast path reads, picked from the raw list as the client sent them
 * (decision 111): building Node's `req.headers` object and a key string per request cost a replay
 * ~1.3 µs of its ~5 µs of JavaScript. Four of them can change a kept public answer or its headers
 * (`VARYING`): what it is wanted as (search answers a browser's Accept with a redirect, pages need
 * text/html), the encoding, the origin (CORS reflects it), and @fastify/compress's opt-out.
 */
export interface PickedHeaders {
  /** Accept, Accept-Encoding, Origin, X-No-Compression: undefined when not sent. */
  varying: [string | undefined, string | undefined, string | undefined, string | undefined];
  ifNoneMatch: string | undefined;
  requestId: string | undefined;
  cookie: string | undefined;
  contentLength: string | undefined;
  transferEncoding: string | undefined;
}

export function emptyPicked(): PickedHeaders {
  return {
    varying: [undefined, undefined, undefined, undefined],
    ifNoneMatch: undefined,
    requestId: undefined,
    cookie: undefined,
    contentLength: undefined,
    transferEncoding: undefined,
  };
}

/** The names `pickOne` stores. */
const PICKED_NAMES = [
  'accept',
  'accept-encoding',
  'origin',
  'x-no-compression',
  'if-none-match',
  'x-request-id',
  'cookie',
  'content-length',
  'transfer-encoding',
];
/** Their lengths: a name of another length is passed over without lowercasing it. */
const PICKED_LENGTHS = new Set(PICKED_NAMES.map((name) => name.length));

/** Stores one header in `into`; false when it was already there (sent twice). */
function pickOne(lower: string, value: string, into: PickedHeaders): boolean | undefined {
  const v = into.varying;
  switch (lower) {
    case 'accept':
      return v[0] === undefined ? ((v[0] = value), true) : false;
    case 'accept-encoding':
      return v[1] === undefined ? ((v[1] = value), true) : false;
    case 'origin':
      return v[2] === undefined ? ((v[2] = value), true) : false;
    case 'x-no-compression':
      return v[3] === undefined ? ((v[3] = value), true) : false;
    case 'if-none-match':
      return into.ifNoneMatch === undefined ? ((into.ifNoneMatch = value), true) : false;
    case 'x-request-id':
      return into.requestId === undefined ? ((into.requestId = value), true) : false;
    case 'cookie':
      return into.cookie === undefined ? ((into.cookie = value), true) : false;
    case 'content-length':
      return into.contentLength === undefined ? ((into.contentLength = value), true) : false;
    case 'transfer-encoding':
      return into.transferEncoding === undefined ? ((into.transferEncoding = value), true) : false;
    default:
      return undefined;
  }
}

/**
 * Reads the headers the fast path needs from `raw` (name, value, name, value…, as Node's
 * `rawHeaders`) into `into`, cleared first. False when one of them was sent twice: Node joins or
 * drops repeats by rules of its own, so such a request goes the full way, and its answer is never
 * recorded (the recording reads the raw headers the same way).
 */
export function pickHeaders(raw: readonly string[], into: PickedHeaders): boolean {
  const v = into.varying;
  v[0] = v[1] = v[2] = v[3] = undefined;
  into.ifNoneMatch = into.requestId = into.cookie = into.contentLength = into.transferEncoding = undefined;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!;
    if (!PICKED_LENGTHS.has(name.length)) continue;
    const value = raw[i + 1]!;
    // Most clients send these names in lower case (HTTP/2 and fetch always do): no copy then.
    let picked = pickOne(name, value, into);
    if (picked === undefined) picked = pickOne(name.toLowerCase(), value, into);
    if (picked === false) return false;
  }
  return true;
}

/** Headers set per request, never replayed: the rate limit's (counted anew) and the transport's. */
const PER_REQUEST = new Set([
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'x-request-id',
  'retry-after',
  'date',
  'connection',
  'keep-alive',
  'transfer-encoding',
]);

/** Headers of the transport, never replayed. */
const TRANSPORT = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'x-request-id']);

/** A refusal's key: method, raw URL and Origin (CORS reflects it); null with a session cookie. */
function refusalKeyOf(
  method: string,
  url: string | undefined,
  headers: http.IncomingHttpHeaders,
  sessionCookie: string,
): string | null {
  if (!url || url.length > MAX_URL_LENGTH) return null;
  if (headers.cookie?.includes(sessionCookie)) return null;
  return `${method}\u0000${url}\u0000${headers.origin ?? ''}`;
}

/** Beyond this a URL is not worth a key (a cache-buster's URL still gets its answer, the full way). */
const MAX_URL_LENGTH = 1024;

/**
 * Whether a GET with these headers may be replayed: not when it carries a body, a session cookie (a
 * signed-in reader may be given other answers), or a URL too long to keep.
 */
export function replayable(
  url: string | undefined,
  picked: PickedHeaders,
  sessionCookie: string,
): url is string {
  if (!url || url.length > MAX_URL_LENGTH) return false;
  if (picked.transferEncoding !== undefined) return false;
  if (picked.contentLength !== undefined && picked.contentLength !== '0') return false;
  return picked.cookie === undefined || !picked.cookie.includes(sessionCookie);
}

/** Whether a kept answer was recorded for the same varying headers (absent and empty alike). */
function sameVarying(kept: readonly string[], asked: PickedHeaders['varying']): boolean {
  return (
    kept[0] === (asked[0] ?? '') &&
    kept[1] === (asked[1] ?? '') &&
    kept[2] === (asked[2] ?? '') &&
    kept[3] === (asked[3] ?? '')
  );
}

/**
 * Kept public answers as the full path sent them, by raw URL and varying headers (decision 041):
 * the fast path (plugins/fast-reads.ts) replays one while its response-cache entry is the one
 * kept now, so a write, or another process's write once noticed, ends every replay of what it
 * changed. Bounded: the oldest key is dropped beyond `maxKeys` (the response cache's two pools: a
 * pass over every record is replayed from its second ask, not only within the last 4,000 keys,
 * decision 110).
 */
export class FastReads {
  /** By key, oldest first (the bound drops the first). */
  private readonly kept = new Map<string, Kept>();
  /** The same answers by raw URL: a request is matched without building a key (decision 111). */
  private readonly byUrl = new Map<string, Kept[]>();
  /** Answers replayed so far (for tests and measurements). */
  replayed = 0;
  /** Refusals replayed so far. */
  refused = 0;

  constructor(private readonly maxKeys = 4000) {}

  get size(): number {
    return this.kept.size;
  }

  /** The refusals as sent, by method, raw URL and Origin (bounded like the answers). */
  private readonly refusals = new Map<string, { offer: RefusalOffer; replay: Replay }>();

  /** The refusal to replay for this request now, if one was recorded and applies. */
  findRefusal(
    method: string,
    url: string | undefined,
    headers: http.IncomingHttpHeaders,
    sessionCookie: string,
  ): Replay | undefined {
    const key = refusalKeyOf(method, url, headers, sessionCookie);
    if (key === null) return undefined;
    const found = this.refusals.get(key);
    return found?.offer.applies() ? found.replay : undefined;
  }

  /** Records a refusal as the full path sent it (from onResponse), for a public route. */
  recordRefusal(request: FastifyRequest, reply: FastifyReply, sessionCookie: string): void {
    const offer = request.fastRefusal;
    if (!offer || !(request.raw instanceof http.IncomingMessage)) return;
    if (request.routeOptions.config.access !== 'public') return;
    const key = refusalKeyOf(request.method, request.raw.url, request.headers, `${sessionCookie}=`);
    if (key === null || this.refusals.has(key)) return;
    const sent = reply.getHeaders();
    if (sent['set-cookie'] !== undefined) return;
    const headers: http.OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(sent))
      if (value !== undefined && !TRANSPORT.has(name)) headers[name] = value;
    if (String(headers['content-length'] ?? offer.body.length) !== String(offer.body.length)) return;
    headers['content-length'] = String(offer.body.length);
    if (this.refusals.size >= 100) this.refusals.clear();
    const route = request.routeOptions.url;
    const replay = { status: reply.statusCode, route, flat: flatHeaders(headers), body: offer.body };
    this.refusals.set(key, { offer, replay });
  }

  /** The replay for a URL and headers when its answer is still the kept one, else undefined (and forgotten). */
  find(url: string, picked: PickedHeaders): Kept | undefined {
    const variants = this.byUrl.get(url);
    if (!variants) return undefined;
    for (const found of variants) {
      if (!sameVarying(found.varying, picked.varying)) continue;
      if (found.offer.current()) return found;
      this.forget(found);
      return undefined;
    }
    return undefined;
  }

  private forget(kept: Kept): void {
    this.kept.delete(kept.key);
    const variants = this.byUrl.get(kept.url);
    if (!variants) return;
    const at = variants.indexOf(kept);
    if (at >= 0) variants.splice(at, 1);
    if (variants.length === 0) this.byUrl.delete(kept.url);
  }

  private keep(kept: Kept): void {
    this.kept.set(kept.key, kept);
    const variants = this.byUrl.get(kept.url);
    if (variants) variants.push(kept);
    else this.byUrl.set(kept.url, [kept]);
    if (this.kept.size > this.maxKeys) {
      const oldest = this.kept.values().next().value;
      if (oldest !== undefined) this.forget(oldest);
    }
  }

  /**
   * Records what the full path sent for `request` (from onResponse), when it is a kept public answer
   * to an anonymous GET and the bytes sent are the entry's own (so a replay is byte for byte).
   */
  record(request: FastifyRequest, reply: FastifyReply, sessionCookie: string): void {
    const offer = request.fastRead;
    if (!offer || request.method !== 'GET') return;
    // Only real connections: the pages' own reads (inject) are not a client's requests.
    if (!(request.raw instanceof http.IncomingMessage)) return;
    const access = request.routeOptions.config.access;
    if (access !== undefined && access !== 'public') return;
    const status = reply.statusCode;
    if (status !== 200 && status !== 304) return;
    if (!offer.current()) return;
    // The client's headers as sent, read as the fast path reads them (`request.headers` may carry
    // what the full path added for its own plugins: cached-json.ts `sendAsBuilt`).
    const url = request.raw.url;
    const picked = emptyPicked();
    if (!pickHeaders(request.raw.rawHeaders, picked)) return;
    if (!replayable(url, picked, `${sessionCookie}=`)) return;
    const sent = reply.getHeaders();
    if (sent['set-cookie'] !== undefined) return;
    const headers: http.OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(sent))
      if (value !== undefined && !PER_REQUEST.has(name)) headers[name] = value;
    let replay: Replay;
    if (status === 304) {
      if (picked.ifNoneMatch !== offer.etag) return;
      replay = { status, route: request.routeOptions.url, flat: flatHeaders(headers), body: undefined };
    } else {
      const encoding = headers['content-encoding'];
      const kept = offer.bodyFor(encoding);
      const quick = kept ? null : (offer.quickFor?.(encoding) ?? null);
      const body = kept ?? quick?.body;
      if (!body || String(headers['content-length'] ?? body.length) !== String(body.length)) return;
      headers['content-length'] = String(body.length);
      replay = { status, route: request.routeOptions.url, flat: flatHeaders(headers), body };
      if (quick) {
        replay.outdated = quick.outdated;
        replay.askedAgain = quick.askedAgain;
      }
    }
    const varying = picked.varying.map((value) => value ?? '');
    const key = `${url}\u0000${varying.join('\u0000')}`;
    let kept = this.kept.get(key);
    if (!kept || !kept.offer.current()) {
      if (kept) this.forget(kept);
      kept = { url, varying, key, offer, cost: request.routeOptions.config.cost ?? 'read' };
      this.keep(kept);
    }
    if (status === 304) kept.notModified = replay;
    else kept.ok = replay;
  }
}

/**
 * The entry's bytes in the encoding sent, or null when they are not the entry's (compressed on the
 * way) or are a quick first copy (decision 069): those are replayed only until the kept copy is made
 * (`quickSent`, decision 108), so the fast path never keeps sending the larger one.
 */
function bodySent(entry: Entry, encoding: unknown): Buffer | null {
  if (encoding === undefined) {
    const plain = plainBody(entry);
    return typeof plain === 'string' ? Buffer.from(plain) : plain;
  }
  if (encoding === 'br' || encoding === 'gzip')
    return entry.quick?.[encoding] ? null : (entry.encoded[encoding] ?? null);
  return null;
}

/**
 * The entry's quick first copy in the encoding sent (decision 108), replayed while the full path
 * would send the same bytes: until the kept copy replaces it or the preferred encoding is made.
 */
function quickSent(entry: Entry, encoding: unknown, preferred: ContentEncoding | null): QuickCopy | null {
  if (encoding !== 'br' && encoding !== 'gzip') return null;
  const body = entry.encoded[encoding];
  if (!body || !entry.quick?.[encoding]) return null;
  const target = preferred ?? encoding;
  return {
    body,
    outdated: () =>
      entry.encoded[encoding] !== body || (target !== encoding && entry.encoded[target] !== undefined),
    askedAgain: () => {
      entry.sent = true;
      upgrades.add(entry, target);
    },
  };
}
