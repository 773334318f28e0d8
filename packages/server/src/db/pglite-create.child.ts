// The short-lived child process that creates an embedded database folder (pglite-folder.ts): PGlite's
// initdb and the first migrations make the process's memory peak near 1 GB (decision 061), and a
// Node process keeps most of that resident after WebAssembly has grown it. Done here, the memory is
// returned to the system when this process exits, and the server or the command opens the
// finished folder at about half that.
// usage: node pglite-create.child.js <pgdata folder to create> <migrations folder>
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { startNewPglite } from './pglite-template.js';

const [pgdata, migrationsFolder] = process.argv.slice(2);
if (!pgdata || !migrationsFolder) {
  console.error('usage: pglite-create.child.js <pgdata folder> <migrations folder>');
  process.exit(2);
}
try {
  // From the empty migrated copy when there is one, else initdb; the copy is made then (decision 090).
  const { pglite, keep } = await startNewPglite(pgdata, migrationsFolder);
  await migrate(drizzle(pglite), { migrationsFolder });
  await keep();
  await pglite.close();
} catch (err) {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
}
