import { CROSSWALK_COLUMNS, LOINC_NOTICE } from '@bvdb/domain';
import { z } from 'zod';
import { errorsFor } from './common.js';
import { defineRoute, STAFF } from './route.js';

// The crosswalk file (issue 45.1, decision 093): every measurand's codes as one CSV, exported for
// anyone and imported by curators — a preview, then a confirm that applies what the preview showed.

/** A crosswalk file travels as text in a JSON body (the app reads the chosen file), as citations do. */
export const CROSSWALK_MAX_CHARS = 2_000_000;
/** Lines one import reads at most (after the header). */
export const CROSSWALK_MAX_LINES = 20_000;

export const CROSSWALK_HEADER = CROSSWALK_COLUMNS.join(',');
export const measurandCodesCsvUrl = '/api/v1/measurand-codes.csv';

export const CrosswalkLineStatusSchema = z
  .enum(['add', 'change', 'unchanged', 'refused'])
  .describe(
    '`add`: a code no measurand has; `change`: the measurand’s code with another display, matrix, unit or source; ' +
      '`unchanged`: as it is; `refused`: not applied, `message` says why',
  );
export type CrosswalkLineStatus = z.infer<typeof CrosswalkLineStatusSchema>;

export const CrosswalkLineSchema = z.object({
  line: z.number().int().describe('The line of the file (the header is line 1)'),
  status: CrosswalkLineStatusSchema,
  system: z.string().describe('As written, or its URI when bvdb knows the system'),
  code: z.string(),
  display: z.string().nullable(),
  measurand: z.string().describe('As written'),
  measurand_id: z.number().int().nullable().describe('null when no measurand has that name'),
  matrix: z.string().nullable(),
  ucum_unit: z.string().nullable(),
  source: z.string().nullable(),
  message: z.string().nullable().describe('Why a line is refused, or what a change changes'),
});
export type CrosswalkLine = z.infer<typeof CrosswalkLineSchema>;

const CountsSchema = z.object({
  add: z.number().int(),
  change: z.number().int(),
  unchanged: z.number().int(),
  refused: z.number().int(),
});

export const CrosswalkPreviewSchema = z.object({
  lines: z.array(CrosswalkLineSchema),
  counts: CountsSchema,
  plan: z
    .string()
    .describe('What confirming does, as a digest: send it with the file; 409 when the codes changed since'),
  notice: z.string().describe(`LOINC's notice: ${LOINC_NOTICE}`),
});
export type CrosswalkPreview = z.infer<typeof CrosswalkPreviewSchema>;

const CrosswalkTextSchema = z
  .string()
  .min(1, 'The file is empty')
  .max(CROSSWALK_MAX_CHARS, 'The file is too large (2,000,000 characters at most): split it');

export const exportMeasurandCodes = defineRoute({
  method: 'GET',
  path: measurandCodesCsvUrl,
  summary:
    `Every measurand’s codes as one CSV (the crosswalk, decision 093), header \`${CROSSWALK_HEADER}\`: ` +
    'the system’s URI, the code, its display, the measurand’s name, the matrix, the UCUM unit and the source; ' +
    'one line per code, so a code for another scale is another line. The `Bvdb-Loinc-Notice` header carries ' +
    `LOINC’s notice (percent-encoded): ${LOINC_NOTICE}`,
  tags: ['v1'],
  access: 'public',
  produces: 'text/csv',
  responses: { 200: z.unknown() },
});

export const previewMeasurandCodesImport = defineRoute({
  method: 'POST',
  path: '/api/v1/measurand-codes/import/preview',
  summary:
    'Read a crosswalk file (its text; the header as the export writes it) and say, line by line, what ' +
    'importing it does: codes added, codes changed, lines refused with their message (a code another ' +
    'measurand has, an unknown measurand, matrix or system, a LOINC check digit that does not add up, a ' +
    'code twice). Saves nothing; a file that is not a crosswalk is a 400',
  tags: ['v1'],
  access: STAFF,
  body: z.object({ text: CrosswalkTextSchema }).strict(),
  responses: { 200: CrosswalkPreviewSchema, ...errorsFor(400, 401, 403) },
});

export const importMeasurandCodes = defineRoute({
  method: 'POST',
  path: '/api/v1/measurand-codes/import',
  summary:
    'Apply a previewed crosswalk file in one transaction: its added and changed codes, each measurand’s ' +
    'version moved on and written to the audit trail; refused lines are left out, codes not in the file ' +
    'stay. `plan` is the preview’s: 409 when the codes changed since the preview (preview again)',
  tags: ['v1'],
  access: STAFF,
  body: z
    .object({ text: CrosswalkTextSchema, plan: z.string().min(1, 'Preview the file first').max(200) })
    .strict(),
  responses: {
    200: z.object({
      counts: CountsSchema,
      measurand_ids: z.array(z.number().int()).describe('The measurands whose codes changed'),
    }),
    ...errorsFor(400, 401, 403, 409),
  },
});
