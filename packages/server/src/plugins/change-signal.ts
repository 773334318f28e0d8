import type { FastifyInstance } from 'fastify';
import { ChangeListener } from '../db/change-listener.js';
import { readChangeSignal } from '../lib/app-state.repository.js';

/**
 * On PostgreSQL, other processes' writes reach this one's read cache by notification
 * (db/change-listener.ts): each one reads the shared counters once and drops what they changed.
 * Notifications that arrive while a read is running are folded into one more read, so a burst of
 * writes costs two reads, not one per write.
 */
export function registerChangeSignal(app: FastifyInstance): void {
  const { database, cache } = app.deps;
  if (database.kind !== 'postgres' || !database.connectionString) return;
  let running = false;
  let again = false;
  const refresh = async (): Promise<void> => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      do {
        again = false;
        const signal = await readChangeSignal(database.db);
        cache.observe(signal.generations, signal.previousReleaseWrites);
      } while (again);
    } catch (err) {
      // The database is away: the listener reconnects and calls again; reads poll meanwhile.
      app.log.warn({ err }, 'could not read the change signal');
    } finally {
      running = false;
    }
  };
  const listener = new ChangeListener({
    connectionString: database.connectionString,
    onChange: () => void refresh(),
    log: (message) => app.log.warn(message),
  });
  app.deps.changes = listener;
  app.addHook('onReady', async () => listener.start());
  app.addHook('onClose', () => listener.stop());
}
