import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { pagePreloadsPlugin } from './build/page-preloads-plugin';

const api = 'http://127.0.0.1:3000';

const root = fileURLToPath(new URL('.', import.meta.url)).replace(/\/$/, '');

// Two builds: the browser app (dist/) and the server renderer (dist-ssr/, `vite build --ssr`).
export default defineConfig(({ isSsrBuild }) => ({
  plugins: isSsrBuild ? [react()] : [react(), pagePreloadsPlugin(root)],
  // The renderer is one self-contained bundle, so Node never meets the libraries' CommonJS builds.
  ssr: { noExternal: true },
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
  build: isSsrBuild
    ? { outDir: 'dist-ssr', sourcemap: false, emptyOutDir: true }
    : { outDir: 'dist', assetsDir: 'assets', sourcemap: false, chunkSizeWarningLimit: 600 },
}));
