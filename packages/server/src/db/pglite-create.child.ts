// The short-lived child process that creates an embedded database folder (pglite-folder.ts): PGlite's
// initdb and the first migrations make the process's memory peak near 1 GB (decision 061), and a
// Node process keeps most of that resident after WebAssembly has grown it. Done here, the memory is
// returned to the system when this process exits, and the server or the command opens the
// finished folder at about half that.
// usage: node pglite-create.child.js <pgdata folder to create> <migrations folder>
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';

const [pgdata, migrationsFolder] = process.argv.slice(2);
if (!pgdata || !migrationsFolder) {
  console.error('usage: pglite-create.child.js <pgdata folder> <migrations folder>');
  process.exit(2);
}
try {
  const pglite = new PGlite(pgdata);
  await pglite.waitReady;
  await migrate(drizzle(pglite), { migrationsFolder });
  await pglite.close();
} catch (err) {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
}
