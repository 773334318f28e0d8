#!/usr/bin/env node
// Writes the browser journey's laboratory extract (e2e/fixtures/indirect-extract.csv): made up from a
// seed by the server's fixture generator (modules/indirect/extract-fixture.ts), so the same bytes
// every time. Run after `npx tsc -b packages/server/tsconfig.build.json`.
//   node scripts/make-indirect-extract.mjs [patients=600] [out]
import fs from 'node:fs';
import { fixtureCsv } from '../packages/server/dist/modules/indirect/extract-fixture.js';

const patients = Number(process.argv[2] ?? 600);
const out = process.argv[3] ?? 'e2e/fixtures/indirect-extract.csv';
fs.writeFileSync(out, fixtureCsv({ patients, seed: 46, mean: 4.2, cvi: 4.8, cva: 1.5 }));
console.log(`wrote ${out} (${patients} patients)`);
