import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Workspace packages are tested from source, without building them first.
const alias = {
  '@bvdb/domain': fileURLToPath(new URL('./packages/domain/src/index.ts', import.meta.url)),
  '@bvdb/contract': fileURLToPath(new URL('./packages/contract/src/index.ts', import.meta.url)),
};

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
