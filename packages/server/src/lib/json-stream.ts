import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { syncGeneration } from './cached-json.js';

/** In-memory databases restart their generation at 0: their ETags must not outlive the process. */
const BOOT = randomBytes(6).toString('hex');

export interface JsonStream<T> {
  /** The JSON text up to the opening bracket of the streamed array, e.g. `{"code":"success","datasets":[`. */
  head: string;
  /** The items, a batch at a time. */
  batches: AsyncIterable<T[]>;
  /** The JSON text after the array, given how many items were sent, e.g. `],"total":12}`. */
  tail: (count: number) => string;
}

/**
 * A whole-catalogue answer written as it is read: the head goes out at once (first byte before any
 * query), then one batch at a time, so memory holds one batch, never the answer. Public callers get
 * an ETag made from the data generation (every write bumps it), so a poller's If-None-Match costs
 * no query at all; signed-in callers (unpublished data) get `private, no-store`.
 * If the database fails mid-way the connection is cut: a client sees truncated JSON, never a
 * complete-looking partial answer.
 */
export async function sendJsonStream<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  build: () => JsonStream<T>,
): Promise<FastifyReply> {
  const personal = request.user != null;
  if (personal) {
    void reply.header('Cache-Control', 'private, no-store');
  } else {
    await syncGeneration(request);
    const { cache, database } = request.server.deps;
    const seed = `${request.url}|${cache.currentGeneration}|${database.kind === 'postgres' ? '' : BOOT}`;
    const etag = `W/"s-${createHash('sha1').update(seed).digest('base64url').slice(0, 20)}"`;
    void reply
      .header('ETag', etag)
      .header('Cache-Control', 'public, max-age=0, must-revalidate')
      .header('Vary', 'Accept-Encoding');
    if (request.headers['if-none-match'] === etag) return reply.status(304).send();
  }
  const { head, batches, tail } = build();
  async function* chunks(): AsyncGenerator<string> {
    yield head;
    let count = 0;
    for await (const batch of batches) {
      if (batch.length === 0) continue;
      const text = batch.map((item) => JSON.stringify(item)).join(',');
      yield count === 0 ? text : `,${text}`;
      count += batch.length;
    }
    yield tail(count);
  }
  return reply.type('application/json; charset=utf-8').send(Readable.from(chunks()));
}
