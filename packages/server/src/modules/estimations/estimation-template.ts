import ExcelJS from 'exceljs';

/**
 * The template's worked example: 4 subjects (2 F, 2 M) × 4 weekly samples × 2 replicates of a serum
 * analyte around 5 mmol/L, one result missing (subject S3, sample 2, replicate 2) to show it is
 * reported and left out. Fixed numbers, so the example estimates are the same everywhere.
 */
const EXAMPLE: [string, string, string, [number, number | null][]][] = [
  [
    'S1',
    'F',
    '2025-01-06',
    [
      [5.12, 5.08],
      [5.31, 5.36],
      [4.95, 5.01],
      [5.22, 5.18],
    ],
  ],
  [
    'S2',
    'F',
    '2025-01-06',
    [
      [4.41, 4.47],
      [4.62, 4.55],
      [4.38, 4.33],
      [4.51, 4.58],
    ],
  ],
  [
    'S3',
    'M',
    '2025-01-07',
    [
      [6.02, 5.95],
      [6.21, null],
      [5.88, 5.93],
      [6.1, 6.04],
    ],
  ],
  [
    'S4',
    'M',
    '2025-01-07',
    [
      [5.55, 5.61],
      [5.4, 5.47],
      [5.72, 5.66],
      [5.49, 5.52],
    ],
  ],
];
export const TEMPLATE_HEADERS = ['subject', 'sample', 'replicate', 'value', 'group', 'date'] as const;

const addDays = (iso: string, days: number) => {
  const d = new Date(`${iso}T08:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
};

/** The example as rows of the template's columns (a missing value is an empty cell). */
export function templateRows(): (string | number | null)[][] {
  return EXAMPLE.flatMap(([subject, group, start, samples]) =>
    samples.flatMap((reps, s) =>
      reps.map((value, r) => [subject, s + 1, r + 1, value, group, addDays(start, 7 * s)]),
    ),
  );
}

export function buildEstimationTemplateCsv(): string {
  const lines = [TEMPLATE_HEADERS.join(','), ...templateRows().map((r) => r.map((c) => c ?? '').join(','))];
  return `${lines.join('\r\n')}\r\n`;
}

const README = [
  'One row per result, in long format. Required columns: subject, sample (time point), value.',
  'replicate: the replicate number within the sample (1, 2). Without the column, rows of one subject × sample are numbered in order.',
  'group (optional): sex or any group; each group is also estimated on its own.',
  'date (optional): the sampling date, reported only (samples are ordered by their number).',
  'A missing result is an empty cell (or NA): it is counted and reported, never filled in.',
  'Other header names are recognised (participant, visit, result, sex, …) or can be mapped on upload.',
  'Upload at /estimate or POST it to /api/v1/estimations (multipart, part "file").',
];

export async function buildEstimationTemplateXlsx(): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  wb.creator = 'bvdb';
  const ws = wb.addWorksheet('Results');
  ws.addRow([...TEMPLATE_HEADERS]);
  ws.getRow(1).font = { bold: true };
  for (const row of templateRows()) ws.addRow(row);
  ws.columns.forEach((c) => (c.width = 12));
  const about = wb.addWorksheet('Read me');
  about.getColumn(1).width = 110;
  README.forEach((line) => about.addRow([line]));
  return Buffer.from(await wb.xlsx.writeBuffer());
}
