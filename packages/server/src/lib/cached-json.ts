import type { FastifyReply, FastifyRequest } from 'fastify';
import { readDataGeneration } from './app-state.repository.js';
import { encodedBody, preferredEncoding, type Entry } from './response-cache.js';

const SHARED_CHECK_MS = 1000;

/** Other processes on one PostgreSQL may have written: adopt the shared generation, at most once a second. */
export async function syncGeneration(request: FastifyRequest): Promise<void> {
  const { cache, database } = request.server.deps;
  if (database.kind !== 'postgres' || !cache.shouldCheck(Date.now(), SHARED_CHECK_MS)) return;
  cache.observe(await readDataGeneration(database.db));
}

/** Sends a cached entry: 304 when the client has it, else the body, pre-compressed when it is worth it. */
export function sendCachedEntry(
  request: FastifyRequest,
  reply: FastifyReply,
  entry: Entry,
  opts: { type: string; compress: boolean; cacheControl?: string; vary?: string },
): FastifyReply {
  void reply
    .header('ETag', entry.etag)
    .header('Cache-Control', opts.cacheControl ?? 'public, max-age=0, must-revalidate')
    .header('Vary', opts.vary ?? 'Accept-Encoding');
  if (request.headers['if-none-match'] === entry.etag) return reply.status(304).send();
  void reply.type(opts.type);
  const encoding =
    opts.compress && entry.body.length >= 1024 ? preferredEncoding(request.headers['accept-encoding']) : null;
  if (encoding) return reply.header('Content-Encoding', encoding).send(encodedBody(entry, encoding));
  return reply.send(entry.body);
}

/**
 * Public reads as files (spreadsheets): built once per data generation for anonymous callers, so
 * fifty downloads of one export cost one build. Signed-in callers (unpublished data) get a fresh one.
 */
export async function cachedFile(
  request: FastifyRequest,
  reply: FastifyReply,
  opts: { type: string; compress: boolean; sameForEveryone?: boolean },
  build: () => Promise<{ bytes: Buffer; headers: Record<string, string> }>,
): Promise<FastifyReply> {
  const { cache } = request.server.deps;
  const personal = opts.sameForEveryone !== true && request.user != null;
  if (personal) {
    const file = await build();
    return reply
      .type(opts.type)
      .headers(file.headers)
      .header('Cache-Control', 'private, no-store')
      .send(file.bytes);
  }
  await syncGeneration(request);
  let entry = cache.get(request.url);
  if (!entry) {
    const file = await build();
    entry = cache.set(request.url, file.bytes, file.headers);
  }
  void reply.headers(entry.headers);
  return sendCachedEntry(request, reply, entry, {
    type: opts.type,
    compress: opts.compress,
    cacheControl: 'no-cache',
  });
}

/**
 * Answers a public read from the response cache when the data has not changed, with an ETag so
 * clients can revalidate with If-None-Match. Signed-in callers see unpublished data: never cached.
 */
export async function cachedJson<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  compute: () => Promise<T>,
  opts: { varyByUser?: boolean } = {},
): Promise<FastifyReply> {
  const { cache } = request.server.deps;
  const personal = opts.varyByUser !== false && request.user != null;
  if (!personal) await syncGeneration(request);
  const key = request.url;
  let entry = personal ? undefined : cache.get(key);
  if (!entry) {
    const data = await compute();
    const serialised = reply.serialize(data);
    const body =
      typeof serialised === 'string' ? serialised : Buffer.from(serialised as ArrayBuffer).toString('utf8');
    if (personal)
      return reply
        .type('application/json; charset=utf-8')
        .header('Cache-Control', 'private, no-store')
        .send(body);
    entry = cache.set(key, body);
  }
  return sendCachedEntry(request, reply, entry, { type: 'application/json; charset=utf-8', compress: true });
}
