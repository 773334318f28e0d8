import pg from 'pg';

/**
 * Counts the queries sent on one PostgreSQL connection while another is still waiting on it, as
 * pg's "client.query() already executing" deprecation does (pg@9 drops the queue: such code breaks
 * then). A transaction is one connection: its queries must be sent one after another. On the
 * embedded database (PGlite, no pg client) nothing is counted.
 */
export async function countOverlappingQueries(work: () => Promise<unknown>): Promise<number> {
  const proto = pg.Client.prototype as unknown as {
    query: (...args: unknown[]) => unknown;
  };
  const original = proto.query;
  let overlapping = 0;
  proto.query = function (this: { _queryQueue?: unknown[] }, ...args: unknown[]) {
    if ((this._queryQueue?.length ?? 0) > 0) overlapping += 1;
    return original.apply(this, args);
  };
  try {
    await work();
  } finally {
    proto.query = original;
  }
  return overlapping;
}
