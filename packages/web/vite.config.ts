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
    : {
        outDir: 'dist',
        assetsDir: 'assets',
        sourcemap: false,
        chunkSizeWarningLimit: 600,
        rolldownOptions: {
          output: {
            codeSplitting: {
              // The libraries every page runs, as one long-cached file rather than a dozen small
              // ones: fewer requests and better compression (issue 18, first load ≤ 150 KB gzipped).
              // Page code, the charts (recharts, the forest plots) and the forms stay in their own
              // chunks, fetched with the page or when first needed.
              groups: [
                {
                  name: 'vendor',
                  test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/,
                  priority: 2,
                },
              ],
            },
          },
        },
      },
}));
