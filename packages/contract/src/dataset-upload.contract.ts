import { z } from 'zod';
import { errorsFor } from './common.js';
import { defineRoute, STAFF } from './route.js';

/**
 * Bulk entry of datasets from the spreadsheet template (issue 15.2). The file is checked by the
 * same schema as the create form (`DatasetInputSchema`): the same rules and the same messages,
 * reported by spreadsheet row and column.
 */

/** A filled template of 5,000 rows is about 1 MB; anything past this is not a template. */
export const DATASET_UPLOAD_MAX_BYTES = 8 * 1024 * 1024;
/** Rows of one upload: a paper's datasets, or a few papers'; a migration uses `npm run import`. */
export const DATASET_UPLOAD_MAX_ROWS = 5000;

export const DATASET_TEMPLATE_PATH = '/templates/datasets.xlsx';
/** The name of the sheet holding the rows (the first sheet is read when no sheet has this name). */
export const DATASET_TEMPLATE_SHEET = 'Datasets';

export const UploadCellProblemSchema = z.object({
  row: z.number().int().describe('The spreadsheet row (the header is row 1); 0 for the file as a whole'),
  column: z.string().describe('The column header (the form’s label), or "file"'),
  field: z.string().nullable().describe('The payload field of the column, when it has one'),
  message: z.string(),
});
export type UploadCellProblem = z.infer<typeof UploadCellProblemSchema>;

export const UploadRowSchema = z.object({
  row: z.number().int(),
  unique_identifier: z.string().nullable(),
  analyte_id: z.number().int().nullable(),
  measurand: z.string().nullable(),
  matrix: z.string().nullable(),
  reference: z
    .string()
    .nullable()
    .describe('The reference as found (its id and title), or the cell as typed'),
  estimates_of_cvi: z.number().nullable(),
  estimates_of_cvg: z.number().nullable(),
  errors: z.array(UploadCellProblemSchema),
});
export type UploadRow = z.infer<typeof UploadRowSchema>;

export const UploadPreviewSchema = z.object({
  file_name: z.string().nullable(),
  rows: z.array(UploadRowSchema),
  problems: z.array(UploadCellProblemSchema).describe('Problems of the file itself (its columns)'),
  valid: z.boolean().describe('true when every row is valid: the upload can be committed'),
  error_count: z.number().int(),
  measurands: z.number().int().describe('Distinct measurands the rows touch'),
});
export type UploadPreview = z.infer<typeof UploadPreviewSchema>;

const uploadSummary =
  'multipart/form-data, one part named `file`: the filled `/templates/datasets.xlsx` (or the same ' +
  'columns as CSV)';

export const previewDatasetUpload = defineRoute({
  method: 'POST',
  path: '/api/v1/bv_specifications/upload/preview',
  summary: `Check a bulk upload of datasets (${uploadSummary}): every row, with its errors by cell. Saves nothing`,
  tags: ['datasets'],
  access: STAFF,
  responses: { 200: UploadPreviewSchema, ...errorsFor(400, 401, 403, 413) },
});

export const commitDatasetUpload = defineRoute({
  method: 'POST',
  path: '/api/v1/bv_specifications/upload',
  summary:
    `Create the datasets of a bulk upload (${uploadSummary}) in one transaction: all or none. ` +
    '422 lists every bad cell (`fields`, paths like `row 3.Matrix`) and writes nothing; on success ' +
    'each measurand touched gets one recompute request',
  tags: ['datasets'],
  access: STAFF,
  responses: {
    201: z.object({
      created: z.array(
        z.object({ row: z.number().int(), id: z.number().int(), unique_identifier: z.string() }),
      ),
      measurands: z.array(z.number().int()).describe('The measurands whose meta-analyses are recomputed'),
    }),
    ...errorsFor(400, 401, 403, 413, 422),
  },
});

export const getDatasetTemplate = defineRoute({
  method: 'GET',
  path: DATASET_TEMPLATE_PATH,
  summary:
    'The bulk-entry spreadsheet: one row per dataset, a column for every field of the create form ' +
    '(with drop-downs from the lookup tables) and a "Read me" sheet',
  tags: ['datasets'],
  access: 'public',
  produces: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  responses: { 200: z.unknown() },
});
