import { DATASET_MESSAGES, DATASET_TEMPLATE_SHEET, DATASET_UPLOAD_MAX_ROWS } from '@bvdb/contract';
import type ExcelJS from 'exceljs';
import { loadExcel } from '../../lib/excel.js';
import { LIST_TITLES, UPLOAD_COLUMNS, type ListName } from './upload-columns.js';

/** The named lists the template's drop-downs offer (lookup tables as they are now). */
export type TemplateLists = Record<ListName, readonly string[]>;

/** Rows of the data sheet that carry the drop-downs (a paper's datasets fit many times over). */
const ROWS_WITH_DROPDOWNS = 1000;

const columnLetter = (n: number): string => {
  let s = '';
  for (let k = n; k > 0; k = Math.floor((k - 1) / 26)) s = String.fromCharCode(65 + ((k - 1) % 26)) + s;
  return s;
};

/** A drop-down's values as a formula: short fixed lists inline, lookup tables from the "Lists" sheet. */
function listFormula(values: readonly string[]): string {
  return `"${values.join(',')}"`;
}

/**
 * The bulk-entry template (issue 15.2): a "Datasets" sheet with one column per field of the create
 * form (the form's labels, a note on each header, drop-downs for every field with a fixed or looked-up
 * list of values), a "Read me" sheet saying what each column takes, and a "Lists" sheet the drop-downs
 * read (the lookup tables as they are today).
 */
export async function buildDatasetTemplate(lists: TemplateLists): Promise<Buffer> {
  const wb = new (await loadExcel()).Workbook();
  wb.creator = 'bvdb';
  wb.created = new Date(0);
  const data = wb.addWorksheet(DATASET_TEMPLATE_SHEET, { views: [{ state: 'frozen', ySplit: 1 }] });
  const readme = wb.addWorksheet('Read me');
  const listSheet = wb.addWorksheet('Lists');

  // The lookup lists, one column each, for the drop-downs to point at.
  const listNames = Object.keys(LIST_TITLES) as ListName[];
  const listRange = new Map<ListName, string>();
  listNames.forEach((name, i) => {
    const col = columnLetter(i + 1);
    listSheet.getCell(`${col}1`).value = LIST_TITLES[name];
    listSheet.getCell(`${col}1`).font = { bold: true };
    lists[name].forEach((v, j) => (listSheet.getCell(`${col}${j + 2}`).value = v));
    listSheet.getColumn(i + 1).width = 32;
    listRange.set(name, `Lists!$${col}$2:$${col}$${Math.max(2, lists[name].length + 1)}`);
  });

  data.columns = UPLOAD_COLUMNS.map((c) => ({
    header: c.label,
    key: c.field,
    width: Math.min(40, Math.max(12, c.label.length + 4)),
    ...(c.time ? { style: { numFmt: '@' } } : {}),
  }));
  // exceljs keeps range validations (A2:A1001) but its typings only know the per-cell setter.
  const validations = (
    data as unknown as { dataValidations: { add(range: string, v: ExcelJS.DataValidation): void } }
  ).dataValidations;
  const header = data.getRow(1);
  header.font = { bold: true };
  header.alignment = { wrapText: true, vertical: 'top' };
  UPLOAD_COLUMNS.forEach((c, i) => {
    header.getCell(i + 1).note = c.help;
    if (!c.list) return;
    const col = columnLetter(i + 1);
    const lookup = 'lookup' in c.list ? c.list.lookup : undefined;
    // Several disease states go in one cell: the drop-down offers them but accepts a list.
    const many = c.field === 'disease_state_ids';
    validations.add(`${col}2:${col}${ROWS_WITH_DROPDOWNS + 1}`, {
      type: 'list',
      allowBlank: true,
      formulae: [
        lookup ? listRange.get(lookup)! : listFormula((c.list as { values: readonly string[] }).values),
      ],
      showErrorMessage: true,
      errorStyle: many ? 'information' : 'stop',
      errorTitle: c.label,
      error: c.help,
    });
  });

  readme.columns = [
    { header: 'Column', key: 'label', width: 36 },
    { header: 'What it takes', key: 'help', width: 110 },
  ];
  readme.getRow(1).font = { bold: true };
  const intro = [
    'How to use this file',
    `Fill the "${DATASET_TEMPLATE_SHEET}" sheet: one row per dataset (BIVAC dataset), starting at row 2; keep the header row as it is. Upload it at /bv_specifications/upload (signed in).`,
    'Every row is checked with the rules of the "Enter New BIVAC Dataset" form, with the same messages; the preview lists each problem by row and column. Nothing is saved until every row is valid, then all rows are saved at once.',
    `At most ${DATASET_UPLOAD_MAX_ROWS} rows per file. Empty rows are skipped. The file may also be a CSV with the same header row.`,
    `References are not created here: name an existing reference by DOI, by PubMed id (PMID:12345678) or by its bvdb id. ${DATASET_MESSAGES.reference}`,
    'Names from the drop-downs may also be given as their ids (the "Lists" sheet shows the names; ids are on the Matrices and Units pages).',
    '',
  ];
  intro.forEach((line, i) => {
    const row = readme.addRow({ label: i === 0 ? line : '', help: i === 0 ? '' : line });
    if (i === 0) row.font = { bold: true };
    row.alignment = { wrapText: true, vertical: 'top' };
  });
  const columnsTitle = readme.addRow({ label: 'Column', help: 'What it takes' });
  columnsTitle.font = { bold: true };
  for (const c of UPLOAD_COLUMNS) {
    const allowed =
      c.list && 'values' in c.list
        ? ` Allowed: ${c.list.values.join(', ')}.`
        : c.list
          ? ` Allowed: the "${LIST_TITLES[c.list.lookup]}" list (sheet "Lists").`
          : '';
    const row = readme.addRow({
      label: c.label,
      help: `${c.help}${c.help.includes('Allowed') ? '' : allowed}`,
    });
    row.alignment = { wrapText: true, vertical: 'top' };
  }
  return Buffer.from(await wb.xlsx.writeBuffer());
}
