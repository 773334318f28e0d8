import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { pagePreloadsPlugin } from './build/page-preloads-plugin';
import { routeRefsPlugin } from './build/route-refs-plugin';

const api = 'http://127.0.0.1:3000';

/** A chunk of the listed modules only (their imports are left to their own chunks). */
const group = (name: string, priority: number, files: string[]) => ({
  name,
  test: new RegExp(`(${files.map((file) => file.replaceAll('/', '[\\\\/]')).join('|')})\\.(tsx?|js)$`),
  priority,
  includeDependenciesRecursively: false,
});

const root = fileURLToPath(new URL('.', import.meta.url)).replace(/\/$/, '');

// Two builds: the browser app (dist/) and the server renderer (dist-ssr/, `vite build --ssr`).
export default defineConfig(({ isSsrBuild }) => ({
  plugins: isSsrBuild ? [react()] : [react(), routeRefsPlugin(root), pagePreloadsPlugin(root)],
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
          // The contract's schemas and routes are built by calls (`z.object(…)`, `defineRoute(…)`):
          // marked pure, those no page imports are left out of the browser's chunks.
          treeshake: { manualPureFunctions: ['z', 'defineRoute', 'errorsFor'] },
          output: {
            codeSplitting: {
              // Issue 18: the first load of the home page and of a measurand's page within 150 KB of
              // JavaScript gzipped (decision 028). A few large files rather than dozens of small ones:
              // each file pays its own compression overhead and its own entry in every lazy import's
              // dependency list. Page code, the charts (recharts, the forest plots) and the forms
              // stay in their own chunks, fetched with the page or when first needed.
              groups: [
                // The libraries every page runs, in one long-cached file.
                {
                  name: 'vendor',
                  test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/,
                  priority: 2,
                },
                // The app itself: app/start.tsx and everything it imports statically (layout,
                // navigation, query client, zod with the contract routes it reads), which every page
                // loads after the entry; what only lazy chunks use (forms, mutations) stays out.
                {
                  name: 'app',
                  test: /web[\\/]src[\\/]app[\\/]start\.tsx$/,
                  priority: 1.5,
                },
                // Small modules many pages share (formatting, rounding, the citation, the table
                // element, the datasets' query), which were a dozen chunks of 0.2–2 KB: one file, so
                // a page that needs one of them does not fetch the measurand page's own code (issue
                // 44.6: every server-rendered page within 120 KiB, decision 088). Their own imports
                // are not pulled in, so the home page does not grow.
                group('shared', 1.2, [
                  'domain/src/citation',
                  'domain/src/meta-eligibility',
                  'domain/src/format',
                  'domain/src/rounding',
                  'domain/src/headline-matrix',
                  'domain/src/estimate-history',
                  'domain/src/meta-use',
                  'react-bootstrap/esm/Table',
                ]),
                // The datasets' and releases' queries and the cite button, which the record pages share.
                group('record-shared', 1.15, [
                  'web/src/components/header-row',
                  'web/src/components/cite/cite-button',
                  'web/src/features/datasets/api/get-datasets',
                  'web/src/features/datasets/spec-page',
                  'web/src/features/releases/api/get-release',
                  'web/src/features/releases/api/get-releases',
                ]),
                // A measurand's result summary, which the search results and the meta-analyses list
                // show too.
                group('meta-summary', 1.1, [
                  'web/src/components/meta-summary',
                  'web/src/lib/estimate-permalink',
                  'web/src/lib/headline-metas',
                  'web/src/features/calculators/components/lazy-calculators',
                ]),
                // The measurand page's own modules.
                group('analyte-page', 1, [
                  'web/src/app/routes/analyte-page',
                  'web/src/features/analytes/meta-use',
                  'web/src/features/analytes/components/dataset-table',
                  'web/src/components/forest-plot/forest-plot-section',
                  'web/src/lib/release-pin',
                  'web/src/lib/meta-limits',
                ]),
              ],
            },
          },
        },
      },
}));
