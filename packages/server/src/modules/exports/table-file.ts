import { loadExcel } from '../../lib/excel.js';
import { exportCell, neutralise } from './export-columns.js';

/** A plain table as a file (the workbench's summary table, issue 32.1): one sheet, and a "Read me". */
export interface TableFileInput {
  title: string;
  headers: string[];
  rows: (string | number | null)[][];
  /** Lines of the "Read me" sheet: parameters, sources, release, licence. */
  notes: [string, string][];
  generatedAt: Date;
}

const csvCell = (v: string | number | null) => {
  const s = v === null ? '' : String(exportCell(v));
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/** RFC 4180 CSV, cells rounded and neutralised like the other exports (exportCell). */
export function tableToCsv(input: TableFileInput): string {
  const lines = [input.headers.map(csvCell).join(',')];
  for (const row of input.rows) lines.push(row.map(csvCell).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/** An .xlsx of the table (frozen header, filters) and its "Read me". */
export async function tableToXlsx(input: TableFileInput): Promise<Buffer> {
  const wb = new (await loadExcel()).Workbook();
  wb.creator = 'bvdb';
  wb.created = input.generatedAt;
  const sheet = wb.addWorksheet('Table', { views: [{ state: 'frozen', ySplit: 1, xSplit: 1 }] });
  sheet.columns = input.headers.map((header, i) => ({ header, key: `c${i}`, width: i < 2 ? 24 : 13 }));
  sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: input.headers.length } };
  sheet.getRow(1).font = { bold: true };
  for (const row of input.rows) sheet.addRow(row.map((v) => (v === null ? null : exportCell(v))));
  const readMe = wb.addWorksheet('Read me');
  readMe.columns = [
    { key: 'k', width: 24 },
    { key: 'v', width: 120 },
  ];
  readMe.addRow({ k: 'File', v: neutralise(input.title) });
  readMe.addRow({ k: 'Generated', v: input.generatedAt.toISOString() });
  for (const [k, v] of input.notes) readMe.addRow({ k, v: neutralise(v) });
  return Buffer.from(await wb.xlsx.writeBuffer());
}
