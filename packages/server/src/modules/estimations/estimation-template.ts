import { loadExcel } from '../../lib/excel.js';

/**
 * The template's worked example, a fasting serum analyte around 5 mmol/L (cholesterol-like): 12
 * subjects (6 F, 6 M) sampled weekly in the morning, 8 samples in duplicate. Realistic on purpose, so
 * the template uploaded unchanged gives a report in which every step has something to show:
 * - S12 dropped out after 5 samples (an unbalanced design);
 * - S04's sample 6 has one replicate (the second is missing: reported, never filled in);
 * - S09's sample 3 has a replicate pair 17 % apart, which Cochran's C removes (decision 060).
 * The numbers were drawn once (mulberry32 seed 7; CVG 13 %, CVI 6 %, CVA 2.5 %) and are fixed here,
 * so the example estimates are the same everywhere. Each subject: group, then its results as
 * sample 1 replicates 1 and 2, sample 2 replicates 1 and 2, and so on.
 */
const EXAMPLE: [string, string, (number | null)[]][] = [
  [
    'S01',
    'F',
    [6.47, 6.64, 6.75, 6.48, 5.94, 6.41, 7.34, 7.05, 7.02, 6.56, 7.15, 7.1, 6.39, 6.23, 6.33, 6.1],
  ],
  [
    'S02',
    'F',
    [4.64, 4.51, 4.77, 4.74, 4.29, 4.6, 4.46, 4.32, 4.42, 4.39, 4.56, 4.41, 4.13, 4.43, 4.46, 4.27],
  ],
  [
    'S03',
    'F',
    [5.98, 6.01, 5.9, 5.83, 5.64, 5.77, 5.35, 5.19, 5.31, 5.39, 5.25, 5.67, 6.25, 6.05, 4.9, 4.81],
  ],
  [
    'S04',
    'F',
    [4.54, 4.57, 4.84, 4.88, 4.75, 4.48, 5.13, 4.84, 4.51, 4.5, 4.58, null, 4.85, 5.01, 4.58, 4.77],
  ],
  [
    'S05',
    'F',
    [4.73, 4.79, 5.13, 5.3, 4.62, 4.67, 4.63, 4.53, 5.11, 5.02, 4.61, 4.69, 4.36, 4.34, 5.04, 4.97],
  ],
  [
    'S06',
    'F',
    [6.04, 6.04, 5.28, 5.04, 5.74, 5.67, 5.66, 5.55, 6.23, 6.28, 6.13, 6.26, 6.22, 5.9, 6.27, 6.28],
  ],
  ['S07', 'M', [6.4, 6.41, 4.77, 5.07, 5.1, 4.93, 5.56, 5.56, 5.53, 5.53, 5.16, 5, 5.44, 5.47, 5.35, 5.03]],
  ['S08', 'M', [5.3, 5.03, 4.81, 4.7, 4.5, 4.38, 5.01, 4.84, 4.55, 4.89, 5, 5.16, 4.25, 4.41, 4.9, 4.88]],
  [
    'S09',
    'M',
    [4.64, 4.7, 4.6, 4.61, 4.82, 5.64, 4.48, 4.67, 5.36, 5.17, 4.91, 4.67, 4.56, 4.49, 4.52, 4.59],
  ],
  [
    'S10',
    'M',
    [3.95, 3.92, 4.05, 4.12, 3.98, 3.92, 4.11, 4.29, 3.48, 3.42, 4.14, 4.06, 3.93, 4.01, 3.81, 4.03],
  ],
  ['S11', 'M', [4.5, 4.95, 4.18, 4.3, 5.02, 4.84, 5.09, 4.86, 4.91, 4.72, 4.83, 4.9, 5.04, 5, 4.79, 4.66]],
  ['S12', 'M', [4.91, 4.94, 5.67, 5.64, 5.12, 5.19, 5.32, 4.84, 5.62, 5.65]],
];
export const TEMPLATE_HEADERS = ['subject', 'sample', 'replicate', 'value', 'group', 'date'] as const;

/** Morning sampling times (fasting, 07:30–09:15), varying by subject and week. */
const TIMES = ['07:30', '07:45', '08:00', '08:10', '08:25', '08:40', '08:55', '09:15'];
/** Subjects enrolled Monday to Friday of the week of 6 January 2025, then sampled weekly. */
function sampleDate(subjectIndex: number, sampleIndex: number): string {
  const d = new Date(Date.UTC(2025, 0, 6 + (subjectIndex % 5) + 7 * sampleIndex));
  return `${d.toISOString().slice(0, 10)} ${TIMES[(subjectIndex * 3 + sampleIndex) % TIMES.length]}`;
}

/** The example as rows of the template's columns (a missing value is an empty cell). */
export function templateRows(): (string | number | null)[][] {
  return EXAMPLE.flatMap(([subject, group, values], i) =>
    values.map((value, k) => {
      const sample = Math.floor(k / 2);
      return [subject, sample + 1, (k % 2) + 1, value, group, sampleDate(i, sample)];
    }),
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
  'date (optional): the sampling date and time as YYYY-MM-DD HH:MM (or a date cell); it gives the sampling interval, study duration and times of a draft dataset. Samples are still ordered by their number.',
  'The example: 12 subjects × 8 weekly samples in duplicate; S12 left after 5 samples, S04 sample 6 has one result, S09 sample 3 has an outlying replicate pair.',
  'A missing result is an empty cell (or NA): it is counted and reported, never filled in.',
  'Other header names are recognised (participant, visit, result, sex, …) or can be mapped on upload.',
  'Upload at /estimate or POST it to /api/v1/estimations (multipart, part "file").',
];

export async function buildEstimationTemplateXlsx(): Promise<Buffer> {
  const wb = new (await loadExcel()).Workbook();
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
