import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderBenchSettingsTable, renderSettingsTable } from '../config-reference.js';

// npm run settings:docs: writes the README's settings table and docs/bench.md's table of the bench
// knobs from config-reference.ts.
const root = path.resolve(fileURLToPath(new URL('../../../../', import.meta.url)));

function writeBetweenMarkers(file: string, marker: string, table: string): void {
  const text = fs.readFileSync(file, 'utf8');
  const start = text.indexOf(`<!-- ${marker}:start`);
  const startEnd = text.indexOf('-->', start) + 3;
  const end = text.indexOf(`<!-- ${marker}:end -->`);
  if (start < 0 || end < 0) {
    console.error(`${file} has no <!-- ${marker}:start … --> / <!-- ${marker}:end --> markers`);
    process.exit(1);
  }
  fs.writeFileSync(file, `${text.slice(0, startEnd)}\n\n${table}\n${text.slice(end)}`);
  console.log(`wrote the ${marker} table of ${file}`);
}

writeBetweenMarkers(path.join(root, 'README.md'), 'settings', renderSettingsTable());
writeBetweenMarkers(path.join(root, 'docs/bench.md'), 'bench-settings', renderBenchSettingsTable());
