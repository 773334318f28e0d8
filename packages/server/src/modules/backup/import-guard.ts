import { AppError } from '../../lib/app-error.js';

export const anotherImportRunning = () =>
  new AppError('conflict', 'Another import is running; try again when it has finished');

/** The databases this process is importing into now. */
const importing = new WeakSet<object>();

/**
 * One import at a time per database in this process: a second one is refused at once (409), before
 * it reads its file. The embedded database has one connection, so its transactions queue rather
 * than collide: only this flag can refuse there. Other processes on a PostgreSQL server are kept out
 * by the advisory lock the import's transaction takes (`tryTakeImportLock`).
 */
export async function oneImportAtATime<T>(db: object, work: () => Promise<T>): Promise<T> {
  if (importing.has(db)) throw anotherImportRunning();
  importing.add(db);
  try {
    return await work();
  } finally {
    importing.delete(db);
  }
}
