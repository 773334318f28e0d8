import type { Dataset } from '@bvdb/contract';
import { DATASET_COLUMNS, exportCell } from './export-columns.js';

/** One RFC 4180 cell, rounded and neutralised like the xlsx (exportCell). */
const cell = (v: string | number | null) => {
  const s = v === null ? '' : String(exportCell(v));
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/** The header line of the dataset columns, CRLF-ended. */
export const datasetsCsvHeader = (): string => `${DATASET_COLUMNS.map((c) => cell(c.header)).join(',')}\r\n`;

/** These datasets' lines, each CRLF-ended: a page of the file, sent as it is read (issue 44.2). */
export function datasetsCsvRows(datasets: readonly Dataset[]): string {
  let out = '';
  for (const d of datasets) out += `${DATASET_COLUMNS.map((c) => cell(c.value(d))).join(',')}\r\n`;
  return out;
}

/** RFC 4180 CSV of the dataset columns: the header and every dataset's line. */
export const datasetsToCsv = (datasets: readonly Dataset[]): string =>
  datasetsCsvHeader() + datasetsCsvRows(datasets);
