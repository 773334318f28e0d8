#!/usr/bin/env node
// The JavaScript and CSS a first visit downloads for the home page and for a measurand's page: what
// index.html links, the app's own chunks and the page's chunks (dist/page-preloads.json, which the
// server announces), compressed as the server sends them. Run after `npm run build`. Issue 18's
// budget: 150 KB of JavaScript gzipped on each (decision 028). With `--check` it exits 1 when either
// is over (`npm test` runs it after the build, so a change that breaks the budget fails CI).
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

const BUDGET_BYTES = 150 * 1024;
let over = false;

function sizes(files) {
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
  if (isScript && gzip > BUDGET_BYTES) over = true;
  const budget = isScript ? ` (budget 150 KB gzip: ${gzip <= BUDGET_BYTES ? 'within' : 'OVER'})` : '';
  return `${files.length} files, ${kib(raw)} raw, ${kib(gzip)} gzip, ${kib(brotli)} brotli${budget}`;
}

console.log(`first load JavaScript (home): ${sizes(linked('.js'))}`);
console.log(`first load JavaScript (measurand page): ${sizes(linked('.js', '/analytes/:id'))}`);
console.log(`first load CSS: ${sizes(linked('.css'))}`);

if (over && process.argv.includes('--check')) {
  console.error('✗ the first load is over its budget of 150 KB of JavaScript gzipped (decision 028)');
  process.exit(1);
}
