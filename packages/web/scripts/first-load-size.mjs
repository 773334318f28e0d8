#!/usr/bin/env node
// The JavaScript and CSS a first visit downloads before the home page can render: the entry script
// and every file index.html preloads, compressed as the server sends them. Run after `npm run build`.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const dist = path.resolve(import.meta.dirname, '../dist');
const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
const linked = (ext) =>
  [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+)"/g)].map((m) => m[1]).filter((f) => f.endsWith(ext));

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
  return `${files.length} files, ${kib(raw)} raw, ${kib(gzip)} gzip, ${kib(brotli)} brotli`;
}

console.log(`first load JavaScript: ${sizes(linked('.js'))}`);
console.log(`first load CSS: ${sizes(linked('.css'))}`);
