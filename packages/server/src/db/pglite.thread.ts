import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, types, type ParserOptions } from '@electric-sql/pglite';
import type { ThreadAnswer, ThreadAsk, ThreadStart } from './pglite-thread-protocol.js';

/**
 * The embedded database's own thread (decision 085): it opens PGlite, runs every query and decodes
 * its rows, so the event loop only receives them (structured clone) and maps them. The process that
 * spawned it holds the folder lock and decides when it stops; this thread never touches the lock.
 */
const start = workerData as ThreadStart;
const port = parentPort!;

/**
 * Drizzle's own parsers for PGlite (drizzle-orm/pglite/session.js): dates, times and intervals stay
 * the strings PostgreSQL sent, as the in-process driver and node-postgres leave them.
 */
const DRIZZLE_PARSERS: ParserOptions = {
  [types.TIMESTAMP]: (value: string) => value,
  [types.TIMESTAMPTZ]: (value: string) => value,
  [types.INTERVAL]: (value: string) => value,
  [types.DATE]: (value: string) => value,
  1231: (value: string) => value,
  1115: (value: string) => value,
  1185: (value: string) => value,
  1187: (value: string) => value,
  1182: (value: string) => value,
};

/** What a PostgreSQL error carries that the server looks at (code, constraint…), never a stack. */
function errorOf(err: unknown): Extract<ThreadAnswer, { ok: false }>['error'] {
  const e = (err ?? {}) as Record<string, unknown>;
  const fields: Record<string, string> = {};
  for (const key of [
    'code',
    'detail',
    'hint',
    'constraint',
    'table',
    'column',
    'schema',
    'severity',
    'where',
  ]) {
    if (typeof e[key] === 'string') fields[key] = e[key];
  }
  return { message: err instanceof Error ? err.message : String(err), fields };
}

const pglite = start.pgdata ? new PGlite(start.pgdata, { startParams: start.startParams }) : new PGlite();

async function answer(ask: Extract<ThreadAsk, { kind: 'query' | 'exec' }>): Promise<ThreadAnswer> {
  try {
    if (ask.kind === 'exec') {
      const results = await pglite.exec(ask.text);
      const last = results.at(-1);
      return { id: ask.id, ok: true, rows: last?.rows ?? [], affectedRows: last?.affectedRows, fields: [] };
    }
    const res = await pglite.query(ask.text, ask.params, {
      rowMode: ask.rowMode,
      ...(ask.drizzleTypes ? { parsers: DRIZZLE_PARSERS } : {}),
    });
    return {
      id: ask.id,
      ok: true,
      rows: res.rows,
      affectedRows: res.affectedRows,
      fields: res.fields.map((f) => ({ name: f.name, dataTypeID: f.dataTypeID })),
    };
  } catch (err) {
    return { id: ask.id, ok: false, error: errorOf(err) };
  }
}

port.on('message', (ask: ThreadAsk) => {
  if (ask.kind === 'close') {
    void pglite.close().finally(() => {
      port.postMessage({ id: ask.id, ok: true, rows: [], fields: [] } satisfies ThreadAnswer);
      port.close();
    });
    return;
  }
  if (ask.kind === 'crash') {
    // Tests only: the thread dies as a bug or an out-of-memory in it would.
    process.exit(1);
  }
  void answer(ask).then((a) => port.postMessage(a));
});

pglite.waitReady.then(
  () => port.postMessage({ ready: true }),
  (err: unknown) => port.postMessage({ ready: false, error: errorOf(err) }),
);
