import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Workspace packages are tested from source, without building them first.
const alias = {
  '@bvdb/domain': fileURLToPath(new URL('./packages/domain/src/index.ts', import.meta.url)),
  '@bvdb/contract': fileURLToPath(new URL('./packages/contract/src/index.ts', import.meta.url)),
};

/**
 * The PostgreSQL-server pass (`TEST_DATABASE_URL` set, `npm test` in CI) runs again only the server's
 * test files that open a test database (through `test/test-app` or `TEST_DATABASE_URL` itself): the
 * others (pure logic, the embedded database's own folders and threads, the CLI's build) would run a
 * second time exactly as in the PGlite pass, ~90 s of CI for nothing.
 */
function serverFilesOpeningTheDatabase(): string[] {
  const root = fileURLToPath(new URL('./packages/server/src', import.meta.url));
  return fs
    .readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.ts'))
    .filter((file) => /test-app\.js|TEST_DATABASE_URL/.test(fs.readFileSync(path.join(root, file), 'utf8')))
    .map((file) => `src/${file.split(path.sep).join('/')}`);
}

const pgPass = Boolean(process.env.TEST_DATABASE_URL);

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      { resolve: { alias }, test: { name: 'domain', root: 'packages/domain', environment: 'node' } },
      { resolve: { alias }, test: { name: 'contract', root: 'packages/contract', environment: 'node' } },
      {
        resolve: { alias },
        test: {
          name: 'server',
          root: 'packages/server',
          environment: 'node',
          ...(pgPass ? { include: serverFilesOpeningTheDatabase() } : {}),
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'web',
          root: 'packages/web',
          environment: 'jsdom',
          setupFiles: ['./src/test/setup.ts'],
        },
      },
    ],
  },
});
