import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const api = 'http://127.0.0.1:3000';

export default defineConfig({
  plugins: [react()],
  resolve: {
    alias: {
      '@bvdb/domain': fileURLToPath(new URL('../domain/src/index.ts', import.meta.url)),
      '@bvdb/contract': fileURLToPath(new URL('../contract/src/index.ts', import.meta.url)),
    },
  },
  server: {
    proxy: Object.fromEntries(
      [
        '/api',
        '/autocomplete',
        '/export_by_analyte',
        '/export_by_reference',
        '/export/',
        '/users/sign_in',
        '/users/sign_out',
      ].map((p) => [p, api]),
    ),
  },
  build: { outDir: 'dist', assetsDir: 'assets', sourcemap: false, chunkSizeWarningLimit: 600 },
});
