import pg from 'pg';

/** The channel every write notifies on commit (lib/app-state.repository.ts). */
export const CHANGE_CHANNEL = 'bvdb_data_change';

export interface ChangeListenerOptions {
  connectionString: string;
  /** Called on every notification, and after each (re)connection (notices may have been missed). */
  onChange: () => void;
  log?: (message: string) => void;
  /** First pause before reconnecting; doubles up to 10 s. */
  retryMs?: number;
}

/** The listening connection's `application_name` in pg_stat_activity. */
export const LISTENER_APPLICATION_NAME = 'bvdb-listen';

/**
 * One dedicated connection that LISTENs for other processes' writes, so their effect on this
 * process's read cache is seen within milliseconds instead of at the next poll (issue 26, point 5).
 * It lives outside the pool (LISTEN belongs to a session). A lost connection is never fatal: it is
 * logged, `listening` turns false (the once-a-second poll takes over), and it reconnects with
 * back-off.
 */
export class ChangeListener {
  private client: pg.Client | undefined;
  private stopped = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private delay: number;
  listening = false;

  constructor(private readonly opts: ChangeListenerOptions) {
    this.delay = opts.retryMs ?? 500;
  }

  start(): void {
    void this.connect();
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client({
      connectionString: this.opts.connectionString,
      application_name: LISTENER_APPLICATION_NAME,
    });
    this.client = client;
    client.on('error', (err) => this.lost(client, err.message));
    client.on('end', () => this.lost(client, 'connection ended'));
    client.on('notification', () => this.opts.onChange());
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANGE_CHANNEL}`);
    } catch (err) {
      this.lost(client, err instanceof Error ? err.message : String(err));
      return;
    }
    if (this.client !== client || this.stopped) return;
    this.listening = true;
    this.delay = this.opts.retryMs ?? 500;
    this.opts.onChange();
  }

  private lost(client: pg.Client, why: string): void {
    if (this.client !== client) return; // an older connection's last words
    this.client = undefined;
    const was = this.listening;
    this.listening = false;
    client.removeAllListeners('notification');
    void client.end().catch(() => undefined);
    if (this.stopped) return;
    if (was) this.opts.log?.(`change listener lost its connection (${why}); polling until it is back`);
    this.retryTimer = setTimeout(() => void this.connect(), this.delay);
    this.retryTimer.unref();
    this.delay = Math.min(this.delay * 2, 10_000);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.listening = false;
    clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }
}
