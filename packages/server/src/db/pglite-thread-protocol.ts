/** Messages between the event loop and the embedded database's thread (`pglite.thread.ts`). */

export interface ThreadStart {
  /** The data folder (`DATA_DIR/pgdata`); undefined for a throw-away in-memory database. */
  pgdata: string | undefined;
  startParams: string[];
}

export type ThreadAsk =
  | {
      id: number;
      kind: 'query';
      text: string;
      params: unknown[];
      rowMode: 'array' | 'object';
      /** Drizzle's parsers (dates stay strings); raw callers (pg-boss) get PGlite's own. */
      drizzleTypes: boolean;
    }
  | { id: number; kind: 'exec'; text: string }
  | { id: number; kind: 'close' }
  | { id: number; kind: 'crash' };

export type ThreadAnswer =
  | {
      id: number;
      ok: true;
      rows: unknown[];
      affectedRows?: number | undefined;
      fields: { name: string; dataTypeID: number }[];
    }
  | { id: number; ok: false; error: { message: string; fields: Record<string, string> } };

export type ThreadReady =
  { ready: true } | { ready: false; error: { message: string; fields: Record<string, string> } };
