import type { FastifyReply, FastifyRequest } from 'fastify';
import { eq } from 'drizzle-orm';
import { appState } from '../db/schema.js';

const SHARED_CHECK_MS = 1000;
export const DATA_GENERATION_KEY = 'data_generation';

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
  const { cache, database } = request.server.deps;
  const personal = opts.varyByUser !== false && request.user != null;
  if (!personal && database.kind === 'postgres' && cache.shouldCheck(Date.now(), SHARED_CHECK_MS)) {
    const [row] = await database.db
      .select({ value: appState.value })
      .from(appState)
      .where(eq(appState.key, DATA_GENERATION_KEY));
    cache.observe(typeof row?.value === 'number' ? row.value : 0);
  }
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
  void reply.header('ETag', entry.etag).header('Cache-Control', 'public, max-age=0, must-revalidate');
  if (request.headers['if-none-match'] === entry.etag) return reply.status(304).send();
  return reply.type('application/json; charset=utf-8').send(entry.body);
}
