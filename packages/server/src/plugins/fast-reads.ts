import type http from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import type { FastifyInstance } from 'fastify';
import { trustProxyOption } from '../config.js';
import { sharedCheckDue } from '../lib/cached-json.js';
import { isDownloadSize } from '../lib/download-budget.js';
import { emptyPicked, FastReads, pickHeaders, replayable } from '../lib/fast-reads.js';
import type { RateCounters } from '../lib/rate-counters.js';
import {
  limitsOf,
  nearLimit,
  RATE_LIMIT_WINDOW_MS,
  rateLimitHeaders,
  rateLimitKey,
  type RouteCost,
} from './rate-limits.js';

/** The client address as Fastify's `request.ip` gives it, under the same TRUST_PROXY setting. */
function clientAddressOf(app: FastifyInstance): (req: http.IncomingMessage) => string | undefined {
  const trust = trustProxyOption(app.deps.config);
  if (trust === false) return (req) => req.socket.remoteAddress;
  const trusted = typeof trust === 'function' ? trust : proxyAddr.compile(trust);
  return (req) => proxyAddr.all(req, trusted).at(-1);
}

/**
 * The fast read path (decision 041): a GET whose answer the full path kept and sent before to the
 * same raw URL with the same varying headers (lib/fast-reads.ts) is answered from the HTTP server's
 * own request event, before Fastify builds a request, routes it, runs its hooks and serialises:
 * the same status, headers and bytes the full path sent (security headers, CORS, ETag, Vary,
 * Cache-Control), 304 when If-None-Match names the ETag, counted in the same rate-limit counter as
 * the full path, with its X-RateLimit headers near the limit and X-Request-Id when the client sent
 * one (decision 089). Anything else goes the full way: a first ask, a
 * changed answer, a signed-in reader, a counter that is spent (the full path answers the 429), a
 * shared-counter check that is due (PostgreSQL), a server that is closing. Per-request logging is
 * the full path's: at LOG_LEVEL debug or trace the fast path is off, so every request is logged.
 */
export function registerFastReads(
  app: FastifyInstance,
  counters: RateCounters,
  /** The name of the session cookie (the auth module's, handed in by app.ts): a signed-in reader goes the full way. */
  sessionCookieName: string,
): FastReads {
  const { config, downloads, cache } = app.deps;
  const metrics = app.metrics;
  // As many keys as the response cache keeps answers (decision 110).
  const fast = new FastReads(cache.capacity);
  const limits = limitsOf(config);
  const addressOf = clientAddressOf(app);
  // The counters' keys of cheap reads by address, made once (no string built per replayed answer).
  const readKeys = new Map<string, string>();
  const counterOf = (cost: RouteCost, address: string): string => {
    if (cost !== 'read') return rateLimitKey(cost, address);
    let key = readKeys.get(address);
    if (key === undefined) {
      if (readKeys.size >= 5000) readKeys.clear();
      key = rateLimitKey(cost, address);
      readKeys.set(address, key);
    }
    return key;
  };
  const sessionCookie = `${sessionCookieName}=`;
  let open = config.LOG_LEVEL !== 'debug' && config.LOG_LEVEL !== 'trace';

  app.decorateRequest('fastRead', null);
  app.decorateRequest('fastRefusal', null);
  app.addHook('onResponse', async (request, reply) => {
    if (!open) return;
    if (request.fastRead) fast.record(request, reply, sessionCookieName);
    else if (request.fastRefusal) fast.recordRefusal(request, reply, sessionCookieName);
  });
  app.addHook('preClose', async () => {
    open = false;
  });

  /** A refusal made before the body is read (a full hashing queue's 503), as the full path sent it. */
  const refuse = (req: http.IncomingMessage, res: http.ServerResponse): boolean => {
    const replay = fast.findRefusal(req.method ?? '', req.url, req.headers, sessionCookie);
    if (!replay) return false;
    const startedAt = performance.now();
    const id = app.recentRequests.genReqId(req);
    fast.refused += 1;
    // The unread body is drained by Node once the answer is sent, as on the full path.
    res.writeHead(replay.status, [...replay.flat, 'x-request-id', id]);
    res.end(replay.body);
    metrics?.observeRequest('POST', replay.route, replay.status, (performance.now() - startedAt) / 1000);
    return true;
  };

  // One request is read at a time (`answer` is synchronous): the picked headers are reused.
  const picked = emptyPicked();
  const answer = (req: http.IncomingMessage, res: http.ServerResponse): boolean => {
    if (!open) return false;
    const startedAt = metrics ? performance.now() : 0;
    if (req.method !== 'GET') return req.method === 'POST' && refuse(req, res);
    // The headers it reads, from the raw list (no `req.headers` object, no key string; decision 111).
    if (!pickHeaders(req.rawHeaders, picked)) return false;
    const url = req.url;
    if (!replayable(url, picked, sessionCookie)) return false;
    const kept = fast.find(url, picked);
    if (!kept) return false;
    const now = Date.now();
    if (sharedCheckDue(app.deps, now)) return false;
    const replay = picked.ifNoneMatch === kept.offer.etag ? kept.notModified : kept.ok;
    if (!replay || replay.outdated?.()) return false;
    const cost = kept.cost as RouteCost;
    const counter = counterOf(cost, addressOf(req) ?? '');
    const max = limits[cost];
    const { current, ttl } = counters.hit(counter, RATE_LIMIT_WINDOW_MS, now);
    // Spent: the full path counts it again and answers the 429 with its message. A download is
    // replayed only when the shared budget lets it go at once; else the full path paces it.
    const body = replay.body;
    const paced = kept.offer.budgeted && body !== undefined && isDownloadSize(body.length);
    if (current > max || (paced && !downloads.takeNow(body.length))) {
      counters.takeBack(counter);
      return false;
    }
    fast.replayed += 1;
    replay.askedAgain?.();
    // The kept flat list as is (lib/fast-reads.ts), unless this answer carries the allowance (near
    // the limit) or a request id (the client sent one: its own, or ours if its was unsafe; decision 089).
    const remaining = max - current;
    const near = nearLimit(max, remaining);
    const echo = picked.requestId !== undefined;
    if (!near && !echo) {
      app.recentRequests.note();
      res.writeHead(replay.status, replay.flat);
    } else {
      const head = near ? [...rateLimitHeaders(max, remaining, ttl), ...replay.flat] : [...replay.flat];
      if (echo) head.push('x-request-id', app.recentRequests.genReqId(req));
      else app.recentRequests.note();
      res.writeHead(replay.status, head);
    }
    res.end(body);
    metrics?.observeRequest('GET', replay.route, replay.status, (performance.now() - startedAt) / 1000);
    return true;
  };

  // Fastify listens to the server's request event from its construction; the fast path goes first.
  const server = app.server;
  const [fastifyHandler] = server.listeners('request') as ((
    req: http.IncomingMessage,
    res: http.ServerResponse,
  ) => void)[];
  if (fastifyHandler) {
    server.removeListener('request', fastifyHandler);
    server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
      if (!answer(req, res)) fastifyHandler(req, res);
    });
  }
  return fast;
}
