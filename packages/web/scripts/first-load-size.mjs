#!/usr/bin/env node
// The JavaScript and CSS a first visit downloads for the home page and for a measurand's page: what
// index.html links, the app's own chunks and the page's chunks (dist/page-preloads.json, which the
// server announces), compressed as the server sends them. Run after `npm run build`. The budget:
// 120 KiB of JavaScript gzipped on every server-rendered page (issue 44.6, decision 088; issue 18
// set 150 KB for the home and measurand pages, decision 028), with the room left printed; the other
// server-rendered pages are listed with their room too (decision 075). With `--check` it exits 1
// when any server-rendered page is over (the summary table `/applications` included, issue 32), or
// when zod is back in the first load of the home or measurand page (decision 075: the contract's
// schemas load with the first API call), so `npm test` fails on either.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const dist = path.resolve(import.meta.dirname, '../dist');
const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
const manifest = JSON.parse(fs.readFileSync(path.join(dist, 'page-preloads.json'), 'utf8'));
const inHtml = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+)"/g)].map((m) => m[1]);
const forPage = (page) => [
  ...new Set([
    ...inHtml,
    ...manifest.everyPageScripts.map((f) => f.slice(1)),
    ...(manifest.pages.find((p) => p.page === page)?.scripts ?? []).map((f) => f.slice(1)),
  ]),
];
const linked = (ext, page = '/') => forPage(page).filter((f) => f.endsWith(ext));

const BUDGET_BYTES = 120 * 1024;
/** The pages whose first load is over the budget. */
const over = [];

function sizes(files, page) {
  let raw = 0;
  let gzip = 0;
  let brotli = 0;
  for (const file of files) {
    const data = fs.readFileSync(path.join(dist, file));
    raw += data.length;
    gzip += zlib.gzipSync(data, { level: 9 }).length;
    brotli += zlib.brotliCompressSync(data).length;
  }
  const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
  const isScript = files.some((f) => f.endsWith('.js'));
  if (isScript && gzip > BUDGET_BYTES) over.push(page);
  const budget = isScript
    ? ` (budget 120 KiB gzip: ${gzip <= BUDGET_BYTES ? 'within' : 'OVER'}, room ${kib(BUDGET_BYTES - gzip)})`
    : '';
  return `${files.length} files, ${kib(raw)} raw, ${kib(gzip)} gzip, ${kib(brotli)} brotli${budget}`;
}

/** zod's schemas all carry `_zod`: a first load holding it parses answers before it needs to. */
const withZod = (files) => files.filter((f) => fs.readFileSync(path.join(dist, f), 'utf8').includes('_zod'));
let zodInFirstLoad = false;

for (const [label, page] of [
  ['home', '/'],
  ['measurand page', '/analytes/:id'],
]) {
  const files = linked('.js', page);
  console.log(`first load JavaScript (${label}): ${sizes(files, page)}`);
  const zod = withZod(files);
  if (zod.length) {
    zodInFirstLoad = true;
    console.log(`  zod in the first load (decision 075): ${zod.join(', ')}`);
  }
}
console.log(`first load CSS: ${sizes(linked('.css'))}`);

// The other server-rendered pages: the same budget.
for (const { page, ssr } of manifest.pages) {
  if (!ssr || page === '/' || page === '/analytes/:id') continue;
  console.log(`  ${page}: ${sizes(linked('.js', page), page)}`);
}

if (process.argv.includes('--check')) {
  if (over.length)
    console.error(
      `✗ the first load of ${over.join(', ')} is over its budget of 120 KiB of JavaScript gzipped (decision 088)`,
    );
  if (zodInFirstLoad)
    console.error('✗ zod is in the first load of the home or measurand page (decision 075)');
  if (over.length || zodInFirstLoad) process.exit(1);
}
