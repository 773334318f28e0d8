import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderSettingsTable } from '../config-reference.js';

// npm run settings:docs: writes the README's settings table from config-reference.ts.
const readme = path.resolve(fileURLToPath(new URL('../../../../README.md', import.meta.url)));
const text = fs.readFileSync(readme, 'utf8');
const start = text.indexOf('<!-- settings:start');
const startEnd = text.indexOf('-->', start) + 3;
const end = text.indexOf('<!-- settings:end -->');
if (start < 0 || end < 0) {
  console.error('README.md has no <!-- settings:start … --> / <!-- settings:end --> markers');
  process.exit(1);
}
fs.writeFileSync(readme, `${text.slice(0, startEnd)}\n\n${renderSettingsTable()}\n${text.slice(end)}`);
console.log(`wrote the settings table of ${readme}`);
