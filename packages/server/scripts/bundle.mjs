#!/usr/bin/env node
// The server as the product runs it (decision 105): `tsc -b` writes one file per module under
// dist/; this bundles dist/main.js and every thread and child entry into dist/bundle/ with esbuild,
// so a start reads a few dozen files instead of ~2,000 (module resolution and loading was half of
// a restart after `kill -9`, issue 44.5). Run by `npm run build` and by `npm start` when stale.
//
// Layout rules the bundle keeps, so every `new URL(…, import.meta.url)` of the sources still lands:
// - dist/bundle is two folders below packages/server, like dist/db or dist/seed, so '../../drizzle',
//   '../../seed-data', '../../node_modules/.cache' and '../../../web/dist' name the same folders;
// - the entries and the shared chunks sit side by side in that one folder, so a thread spawned as
//   './x.thread.js' beside the module that spawns it is found whichever chunk holds that module.
// @fastify/swagger is bundled although it reads its package.json beside its code for a default
// title and version: under the bundle that read fails inside its try/catch and falls back, and
// ours are given (OPENAPI_INFO; openapi-served.test.ts checks them, e2e reads them from the bundle).
// Packages that read files beside their own code (`__dirname`) or load WebAssembly stay external:
// Node loads them from node_modules as before. So does `cookie`: @fastify/cookie reads its named
// exports from `await import('cookie')`, a CommonJS module, and esbuild's chunk for a dynamic
// import of CommonJS exports only `default` (sign-in failed with "stringifySetCookie is not a
// function" until it was external; e2e sign-ins run on the bundle). And exceljs: it is loaded only
// when a workbook is read or written, never on a start, and its dependencies (jszip, archiver,
// unzipper's) call the deprecated `Buffer()`, which Node warns about outside node_modules only.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const serverRoot = fileURLToPath(new URL('..', import.meta.url));
const dist = path.join(serverRoot, 'dist');
const outdir = path.join(dist, 'bundle');

/** Not bundled: each reads its own files, spawns its own workers or loads WebAssembly. */
export const EXTERNAL = [
  '@electric-sql/pglite',
  '@electric-sql/pglite/*',
  '@lhncbc/ucum-lhc',
  '@fastify/swagger-ui',
  'pino',
  'cookie',
  'exceljs',
  'sync-fetch',
  'pg-native',
  'tsx',
  'tsx/*',
];

/** dist/main.js and every `*.thread.js` / `*.child.js` module the server spawns. */
function entryPoints() {
  const entries = [path.join(dist, 'main.js')];
  const visit = (dir) => {
    for (const item of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, item.name);
      if (item.isDirectory()) {
        if (!item.name.startsWith('bundle') && item.name !== 'bench' && item.name !== 'test') visit(file);
      } else if (/\.(thread|child)\.js$/.test(item.name)) entries.push(file);
    }
  };
  visit(dist);
  const names = entries.map((e) => path.basename(e));
  const twice = names.filter((n, i) => names.indexOf(n) !== i);
  if (twice.length > 0) throw new Error(`two thread modules share a name (the bundle is flat): ${twice}`);
  return entries;
}

export async function bundleServer() {
  fs.rmSync(outdir, { recursive: true, force: true });
  await build({
    entryPoints: entryPoints(),
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    outdir,
    entryNames: '[name]',
    chunkNames: '[name]-[hash]',
    external: EXTERNAL,
    // Bundled CommonJS packages call `require` for Node's own modules.
    banner: {
      js: "import { createRequire as __bvdbRequire } from 'node:module'; const require = __bvdbRequire(import.meta.url);",
    },
    sourcemap: 'linked',
    logLevel: 'warning',
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await bundleServer();
}
