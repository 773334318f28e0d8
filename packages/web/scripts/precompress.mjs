#!/usr/bin/env node
// After `vite build`: a brotli (.br) and a gzip (.gz) copy beside every text asset of dist/, at the
// highest levels, so the server sends them as they are (no compression work per request).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const dist = path.resolve(import.meta.dirname, '../dist');
const TEXT = /\.(js|css|html|svg|json|txt|map)$/;

function* files(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else if (TEXT.test(entry.name)) yield full;
  }
}

let before = 0;
let after = 0;
for (const file of files(dist)) {
  const data = fs.readFileSync(file);
  if (data.length < 1024) continue;
  const br = zlib.brotliCompressSync(data, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
    },
  });
  fs.writeFileSync(`${file}.br`, br);
  fs.writeFileSync(`${file}.gz`, zlib.gzipSync(data, { level: 9 }));
  before += data.length;
  after += br.length;
}
console.log(
  `precompressed: ${(before / 1024).toFixed(0)} KiB of text assets → ${(after / 1024).toFixed(0)} KiB brotli`,
);
