import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { syncGeneration } from './cached-json.js';
import { preferredEncoding } from './response-cache.js';
import { varyOn } from './vary.js';

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
 * complete-looking partial answer. Compressed (br or gzip) as it goes, flushed after the first rows.
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
    void reply.header('ETag', etag).header('Cache-Control', 'public, max-age=0, must-revalidate');
    void varyOn(reply, 'Accept-Encoding');
    if (request.headers['if-none-match'] === etag) return reply.status(304).send();
  }
  const chunks = () => jsonStreamText(build());
  void reply.type('application/json; charset=utf-8');
  const encoding = preferredEncoding(request.headers['accept-encoding']);
  if (!encoding) return reply.send(Readable.from(chunks()));
  // Compressed here rather than by @fastify/compress, to flush the compressor after the head and
  // after the first batch: a compressor otherwise holds its output until it has a full block
  // (hundreds of rows), and the client would see its first byte seconds later.
  const zip =
    encoding === 'br'
      ? zlib.createBrotliCompress({ params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } })
      : zlib.createGzip();
  void (async () => {
    let written = 0;
    try {
      for await (const text of chunks()) {
        if (zip.destroyed) return; // the client went away: stop reading the database
        if (!zip.write(text)) {
          await new Promise<void>((resolve) => {
            const go = () => {
              zip.off('drain', go);
              zip.off('close', go);
              resolve();
            };
            zip.once('drain', go);
            zip.once('close', go);
          });
        }
        if (++written <= 2) zip.flush();
      }
      zip.end();
    } catch (err) {
      zip.destroy(err instanceof Error ? err : new Error(String(err)));
    }
  })();
  return varyOn(reply.header('Content-Encoding', encoding), 'Accept-Encoding').send(zip);
}

/** The JSON text of a streamed answer, a batch at a time (kept whole-catalogue files are built from it too). */
export async function* jsonStreamText<T>({ head, batches, tail }: JsonStream<T>): AsyncGenerator<string> {
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
