import fs from 'node:fs';
import { parseCsv } from './csv.js';

/** Reads one of the test-data CSVs as objects keyed by its header (tests only). */
export function readTestCsv(name: string): Record<string, string>[] {
  const text = fs.readFileSync(new URL(`../test-data/${name}`, import.meta.url), 'utf8');
  const [header, ...rows] = parseCsv(text);
  return rows.map((r) => Object.fromEntries(header!.map((h, i) => [h, r[i] ?? ''])));
}
