import { MENU_COLUMNS } from '@bvdb/contract';
import { loadExcel } from '../../lib/excel.js';
import { MENU_SHEET } from './menu-read.js';

/** A worked example: names, an alternative name, a matrix asked, one lab TE given, units echoed. */
const EXAMPLE: (string | number | null)[][] = [
  ['Alanine aminotransferase (ALT)', null, 'Serum', 'U/L', 4.2, 3, null],
  ['Sodium', null, null, 'mmol/L', 0.6, 0.4, null],
  ['Glucose', null, null, 'mmol/L', 1.8, 1.5, null],
  ['Cholesterol (total)', null, null, 'mmol/L', 2, 1.5, 6],
  ['CRP', null, null, 'mg/L', 4, 5, null],
];

const README = [
  'One row per test of your menu. Columns:',
  'name: the test name (the measurand name or one of its alternative names, any case).',
  "code: instead of, or with, the name: a LOINC, NPU or SNOMED CT code, or bvdb's measurand id (the code wins).",
  "matrix (optional): e.g. Serum, Plasma, Urine; empty: the measurand's displayed (headline) matrix.",
  'unit (optional): shown on the sheet only; the percentages do not depend on it.',
  'cva: your analytical CV in %; bias: your bias in % (its size is judged); te (optional): your total error in %, otherwise |bias| + 1.65·CVA.',
  'Lines that match no measurand, or several, are listed with candidates to choose from: nothing is guessed or dropped.',
  'Upload at /applications/menu, or POST it to /api/v1/menu (text/csv, or multipart with part "file").',
];

export const buildMenuTemplateCsv = (): string =>
  [
    MENU_COLUMNS.join(','),
    ...EXAMPLE.map((r) =>
      r.map((c) => (c === null ? '' : String(c).includes(',') ? `"${c}"` : String(c))).join(','),
    ),
  ].join('\r\n') + '\r\n';

export async function buildMenuTemplateXlsx(): Promise<Buffer> {
  const wb = new (await loadExcel()).Workbook();
  wb.creator = 'bvdb';
  const ws = wb.addWorksheet(MENU_SHEET);
  ws.addRow([...MENU_COLUMNS]);
  ws.getRow(1).font = { bold: true };
  for (const row of EXAMPLE) ws.addRow(row);
  ws.columns.forEach((c, i) => (c.width = i === 0 ? 32 : 12));
  const about = wb.addWorksheet('Read me');
  about.getColumn(1).width = 120;
  README.forEach((line) => about.addRow([line]));
  return Buffer.from(await wb.xlsx.writeBuffer());
}
