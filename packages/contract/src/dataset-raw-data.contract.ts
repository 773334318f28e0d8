import { z } from 'zod';
import { errorsFor, IdParamsSchema } from './common.js';
import { ESTIMATION_MAX_FILE_BYTES } from './estimations.contract.js';
import { defineRoute, STAFF } from './route.js';

/**
 * The raw results a dataset was estimated from (issue 31.3, decision 062): one file per
 * dataset, kept with it for staff only — the subject identifiers are the study's pseudonyms, so
 * the file is in no public answer and no public export — and deleted with the dataset.
 */

/** The largest raw-data file: the estimator's own upload limit, so what it read can be kept. */
export const DATASET_RAW_DATA_MAX_BYTES = ESTIMATION_MAX_FILE_BYTES;

export const DatasetRawDataSchema = z.object({
  file_name: z.string(),
  content_type: z.string(),
  bytes: z.number().int(),
  sha256: z.string(),
  uploaded_at: z.string(),
  uploaded_by: z
    .string()
    .nullable()
    .describe('The e-mail of the staff member who uploaded it, if still a user'),
});
export type DatasetRawData = z.infer<typeof DatasetRawDataSchema>;

const RawDataAnswer = z.object({ raw_data: DatasetRawDataSchema.nullable() });

export const getDatasetRawData = defineRoute({
  method: 'GET',
  path: '/api/v1/datasets/:id/raw-data',
  summary: "What is known of a dataset's raw-data file (null when it has none); staff only",
  tags: ['datasets'],
  access: STAFF,
  params: IdParamsSchema,
  responses: { 200: RawDataAnswer, ...errorsFor(400, 401, 403, 404) },
});

export const downloadDatasetRawData = defineRoute({
  method: 'GET',
  path: '/api/v1/datasets/:id/raw-data/file',
  summary: "The dataset's raw-data file as uploaded (CSV, TSV or .xlsx); staff only",
  tags: ['datasets'],
  access: STAFF,
  params: IdParamsSchema,
  produces: 'application/octet-stream',
  responses: { 200: z.unknown(), ...errorsFor(400, 401, 403, 404) },
});

export const uploadDatasetRawData = defineRoute({
  method: 'PUT',
  path: '/api/v1/datasets/:id/raw-data',
  summary:
    'Keep the raw results with the dataset (multipart/form-data, one part named `file`: the CSV, TSV or .xlsx ' +
    `the estimation read, ${DATASET_RAW_DATA_MAX_BYTES / 1024 / 1024} MB at most); replaces an earlier file`,
  tags: ['datasets'],
  access: STAFF,
  params: IdParamsSchema,
  body: z.unknown().describe('multipart/form-data with a part named "file"'),
  responses: { 200: RawDataAnswer, ...errorsFor(400, 401, 403, 404, 413, 422) },
});

export const deleteDatasetRawData = defineRoute({
  method: 'DELETE',
  path: '/api/v1/datasets/:id/raw-data',
  summary: "Remove a dataset's raw-data file",
  tags: ['datasets'],
  access: STAFF,
  params: IdParamsSchema,
  responses: { 200: RawDataAnswer, ...errorsFor(400, 401, 403, 404) },
});
