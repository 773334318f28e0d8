import { z } from 'zod';
import {
  ErrorSchema,
  IdParamsSchema,
  PositiveInt4Schema,
  RequiredVersionQuerySchema,
  errorsFor,
} from './common.js';
import { defineRoute, STAFF } from './route.js';

/**
 * Biological variation from a laboratory's own routine results (issue 46, decision 095): consecutive
 * results of the same patients in, the within-subject CV by indirect methods out, beside bvdb's
 * estimate. Nothing of the file is kept; the answer holds counts and summaries only.
 */

/** Rows of one extract: past it 413, before any estimate. */
export const INDIRECT_MAX_ROWS = 1_000_000;
/** An uploaded extract (multipart): 1,000,000 rows of six short columns are about 50 MB. */
export const INDIRECT_MAX_FILE_BYTES = 64 * 1024 * 1024;

export const INDIRECT_METHOD_NAMES = ['result_ratio', 'expected_mean_squares', 'central_peak'] as const;
export type IndirectMethodName = (typeof INDIRECT_METHOD_NAMES)[number];

/** The evidence class of a saved local estimate: shown apart, never part of the meta-analysis. */
export const LOCAL_EVIDENCE_CLASS = 'routine data (indirect)';

/** The columns an extract carries; sex, age and setting are optional. */
export const INDIRECT_COLUMNS = ['patient', 'time', 'value', 'unit', 'sex', 'age', 'setting'] as const;
export type IndirectColumn = (typeof INDIRECT_COLUMNS)[number];

/**
 * Header names accepted for each column without a mapping, compared lower-case with everything but
 * letters and digits dropped ("Patient ID" = "patient_id" = "patientid").
 */
export const INDIRECT_HEADER_ALIASES: Record<IndirectColumn, readonly string[]> = {
  patient: ['patient', 'patientid', 'pid', 'pseudonym', 'subject', 'subjectid', 'person', 'mrn', 'id'],
  time: [
    'datetime',
    'time',
    'date',
    'timestamp',
    'sampletime',
    'sampledate',
    'collectiontime',
    'collectiondate',
    'collected',
    'collectedat',
    'resulttime',
    'takenat',
  ],
  value: ['value', 'result', 'resultvalue', 'concentration', 'conc', 'measurement', 'numericresult'],
  unit: ['unit', 'units', 'resultunit', 'uom'],
  sex: ['sex', 'gender'],
  age: ['age', 'ageyears', 'ageatresult', 'years'],
  setting: ['setting', 'location', 'patienttype', 'encounter', 'ward', 'origin', 'source'],
};

const column = z.string().max(200).optional();
const range = (name: string, min: number, max: number) =>
  z.coerce
    .number({ message: `${name} must be a number` })
    .int(`${name} must be a whole number of days`)
    .min(min, `${name} must be at least ${min}`)
    .max(max, `${name} must be at most ${max}`);

/** Options and column mapping of an upload, in the query string. */
export const IndirectQuerySchema = z
  .object({
    measurand: z
      .string()
      .trim()
      .min(1)
      .max(300)
      .optional()
      .describe('The measurand: its id, or a code as `system|code` (LOINC, NPU, SNOMED CT) or a bare code'),
    matrix: z.coerce.number().int().positive().optional().describe("bvdb's estimate of this matrix (its id)"),
    min_days: range('min_days', 0, 3650)
      .optional()
      .describe('Shortest interval between two results, days (1)'),
    max_days: range('max_days', 1, 3650).optional().describe('Longest interval, days (30)'),
    pairs: z
      .enum(['one', 'all'])
      .optional()
      .describe('At most one pair per patient, or all consecutive pairs'),
    first_low: z.coerce
      .number()
      .finite()
      .optional()
      .describe('Keep pairs whose first result is at least this'),
    first_high: z.coerce.number().finite().optional().describe('… and at most this'),
    methods: z
      .string()
      .max(200)
      .optional()
      .describe(`Comma-separated: ${INDIRECT_METHOD_NAMES.join(', ')} (all by default)`),
    cva: z.coerce
      .number({ message: 'cva must be a number' })
      .min(0, 'cva must be at least 0')
      .max(1000, 'cva must be at most 1000')
      .optional()
      .describe("The laboratory's analytical CV, %: needed for a CVI (CV_total is given without it)"),
    probability: z.coerce
      .number({ message: 'probability must be a number' })
      .gt(0.5, 'probability must be more than 0.5')
      .lt(1, 'probability must be less than 1')
      .optional()
      .describe('Probability of the RCV, two-sided (0.95)'),
    bootstrap: z.coerce.number().int().min(0).max(2000).optional().describe('Resamples of the CVI interval'),
    seed: z.coerce.number().int().min(0).max(4294967295).optional(),
    patient_column: column,
    time_column: column,
    value_column: column,
    unit_column: column,
    sex_column: column,
    age_column: column,
    setting_column: column,
  })
  .strict();
export type IndirectQuery = z.infer<typeof IndirectQuerySchema>;

const UpDownSchema = z.object({ up: z.number(), down: z.number() }).describe('%, both positive');
const IntervalSchema = z.object({ low: z.number(), high: z.number() });
const StepSchema = z.object({ step: z.string(), removed: z.number().int(), remaining: z.number().int() });

export const IndirectMethodResultSchema = z.object({
  method: z.enum(INDIRECT_METHOD_NAMES),
  source: z.string(),
  pairs_used: z.number().int(),
  steps: z.array(StepSchema),
  cv_total: z.number().describe('%: within-subject and analytical variation together'),
  cvi: z.number().nullable().describe('% = √(CV_total² − CVA²); null without a CVA (or when CVA ≥ CV_total)'),
  cvi_interval: IntervalSchema.nullable().describe('Bootstrap percentile interval, 95 %'),
  rcv_model: UpDownSchema.describe("RCV from the fitted model's quantiles of the log ratio"),
  rcv_formula: UpDownSchema.nullable().describe('RCV from the log-normal formula with this CVI and the CVA'),
  histogram: z.array(z.object({ from: z.number(), to: z.number(), count: z.number().int() })),
  fitted: z.array(z.number()).describe("The fitted model's expected count in each bin"),
  note: z.string().optional(),
});
export type IndirectMethodResult = z.infer<typeof IndirectMethodResultSchema>;

export const IndirectPairingSchema = z.object({
  results: z.number().int(),
  patients: z.number().int(),
  dropped_duplicate_times: z.number().int().describe('Duplicate or non-increasing times within a patient'),
  pairs: z.number().int(),
  steps: z.array(StepSchema),
});

export const IndirectStratumSchema = z.object({
  key: z.record(z.string(), z.string()).describe('e.g. {"sex": "female"}; {} for all'),
  pairing: IndirectPairingSchema,
  methods: z.array(IndirectMethodResultSchema),
  note: z.string().optional().describe('Why a stratum has no estimate (too few pairs)'),
});
export type IndirectStratum = z.infer<typeof IndirectStratumSchema>;

export const PublishedEstimateSchema = z.object({
  matrix: z.string().describe('The matrix of the estimate compared with'),
  matrix_id: z.number().int().nullable(),
  median: z.number().describe('CVI, %'),
  lower: z.number().nullable(),
  upper: z.number().nullable(),
  number_used: z.number().int().nullable().describe('Studies in the meta-analysis'),
});

export const IndirectComparisonSchema = z.object({
  method: z.enum(INDIRECT_METHOD_NAMES),
  local_cvi: z.number().nullable(),
  ratio: z.number().nullable().describe('Local CVI ÷ published CVI'),
  inside: z.boolean().nullable().describe('Whether the local CVI lies inside the published interval'),
  rcv_local: UpDownSchema.nullable().describe('RCV with the local CVI and the CVA'),
  rcv_published: UpDownSchema.nullable().describe("RCV with bvdb's CVI and the CVA"),
});

export const IndirectResponseSchema = z.object({
  kept: z.literal(false).describe('The file is stored nowhere; this answer holds counts and summaries only'),
  measurand: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  input: z.object({
    format: z.enum(['csv', 'tsv', 'xlsx']),
    rows: z.number().int(),
    columns: z
      .record(z.enum(INDIRECT_COLUMNS), z.string().nullable())
      .describe('The header each column was read from'),
    unit: z.string().nullable(),
    steps: z.array(StepSchema).describe('Rows left out while reading, counted (never shown)'),
    notes: z.array(z.string()),
  }),
  options: z.object({
    min_days: z.number(),
    max_days: z.number(),
    pairs: z.enum(['one', 'all']),
    first_result_range: IntervalSchema.nullable(),
    methods: z.array(z.enum(INDIRECT_METHOD_NAMES)),
    cva: z.number().nullable(),
    probability: z.number(),
    bootstrap: z.number().int(),
    seed: z.number().int(),
  }),
  all: IndirectStratumSchema,
  strata: z.array(IndirectStratumSchema),
  published: PublishedEstimateSchema.nullable().describe("bvdb's CVI for the measurand and matrix"),
  comparison: z.array(IndirectComparisonSchema),
});
export type IndirectResponse = z.infer<typeof IndirectResponseSchema>;

export const createIndirectEstimate = defineRoute({
  method: 'POST',
  path: '/api/v1/indirect',
  summary:
    "The within-subject CV from a laboratory's routine results (patient id, date-time, value, unit; optional " +
    'sex, age, setting): multipart/form-data with one part `file` (CSV, TSV or .xlsx), options in the query. ' +
    `At most ${INDIRECT_MAX_ROWS.toLocaleString('en')} rows and 64 MB (413). Consecutive results paired by ` +
    'interval, then the result-ratio, expected-mean-squares and central-peak methods, each with CV_total, ' +
    "the CVI and its interval, the RCV, and beside bvdb's estimate of the measurand. Nothing is stored; no " +
    'patient id, value or date is in the answer, a message or a log. One at a time per client address (429)',
  tags: ['indirect'],
  access: 'public',
  body: z.unknown().describe('multipart/form-data with a part "file"'),
  query: IndirectQuerySchema,
  responses: { 200: IndirectResponseSchema, ...errorsFor(400, 404, 409, 413, 422, 429, 503) },
});

const pct = (name: string) =>
  z
    .number({ message: `${name} must be a number` })
    .min(0, `${name} must be at least 0`)
    .max(1000, `${name} must be at most 1000`);

/** What a curator saves of a run: the summary, never the rows. */
export const CreateLocalEstimateBodySchema = z
  .object({
    laboratory: z.string().trim().min(1, 'Say whose results these are').max(200),
    matrix_id: PositiveInt4Schema.nullable().optional(),
    method: z.enum(INDIRECT_METHOD_NAMES),
    cv_total: pct('cv_total'),
    cva: pct('cva'),
    cvi: pct('cvi'),
    cvi_lower: pct('cvi_lower').nullable(),
    cvi_upper: pct('cvi_upper').nullable(),
    pairs: z.number().int().min(1).max(10_000_000),
    patients: z.number().int().min(1).max(10_000_000),
    results: z.number().int().min(1).max(10_000_000),
    min_days: z.number().int().min(0).max(3650),
    max_days: z.number().int().min(1).max(3650),
    pairs_per_patient: z.enum(['one', 'all']),
    period: z.string().trim().max(100).optional().describe('e.g. "2023–2024"'),
    note: z.string().trim().max(2000).optional(),
  })
  .strict();
export type CreateLocalEstimateBody = z.infer<typeof CreateLocalEstimateBodySchema>;

export const LocalEstimateSchema = z.object({
  id: z.number().int(),
  measurand_id: z.number().int(),
  evidence_class: z.literal(LOCAL_EVIDENCE_CLASS),
  laboratory: z.string(),
  matrix: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  method: z.enum(INDIRECT_METHOD_NAMES),
  cv_total: z.number(),
  cva: z.number(),
  cvi: z.number(),
  cvi_lower: z.number().nullable(),
  cvi_upper: z.number().nullable(),
  pairs: z.number().int(),
  patients: z.number().int(),
  results: z.number().int(),
  min_days: z.number().int(),
  max_days: z.number().int(),
  pairs_per_patient: z.enum(['one', 'all']),
  period: z.string().nullable(),
  note: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string().describe('The last edit (the save when never edited)'),
  version: z.number().int().describe('Send it back with an edit or a delete: 409 when it changed since'),
});
export type LocalEstimate = z.infer<typeof LocalEstimateSchema>;

export const LocalEstimatesSchema = z.object({
  measurand_id: z.number().int(),
  items: z.array(LocalEstimateSchema),
});
export type LocalEstimates = z.infer<typeof LocalEstimatesSchema>;

export const listLocalEstimates = defineRoute({
  method: 'GET',
  path: '/api/v1/measurands/:id/local-estimates',
  summary:
    'Laboratories\' own estimates from routine data (evidence class "routine data (indirect)"): shown apart, ' +
    'never part of the meta-analysis; newest first',
  tags: ['v1'],
  access: 'public',
  params: IdParamsSchema,
  responses: { 200: LocalEstimatesSchema, 404: ErrorSchema },
});

export const createLocalEstimate = defineRoute({
  method: 'POST',
  path: '/api/v1/measurands/:id/local-estimates',
  summary:
    'Save the summary of an indirect run (never its rows) as a local estimate of the measurand: curators ' +
    'and administrators',
  tags: ['v1'],
  access: STAFF,
  params: IdParamsSchema,
  body: CreateLocalEstimateBodySchema,
  responses: { 201: LocalEstimateSchema, ...errorsFor(400, 401, 403, 404) },
});

/** What a curator may edit of a saved local estimate: its label and notes, never the numbers of the run. */
export const UpdateLocalEstimateBodySchema = z
  .object({
    version: PositiveInt4Schema.describe(
      'The version the curator saw: 409 with `current` when it changed since',
    ),
    laboratory: z.string().trim().min(1, 'Say whose results these are').max(200).optional(),
    period: z.string().trim().max(100).nullable().optional().describe('e.g. "2023–2024"; null clears it'),
    note: z.string().trim().max(2000).nullable().optional().describe('null clears it'),
  })
  .strict();
export type UpdateLocalEstimateBody = z.infer<typeof UpdateLocalEstimateBodySchema>;

export const updateLocalEstimate = defineRoute({
  method: 'PATCH',
  path: '/api/v1/local-estimates/:id',
  summary:
    "Edit a local estimate's laboratory, period or note (curators and administrators; the numbers of the run " +
    'stay as saved). `version` is the one the curator saw: 409 with `current` when it changed since. Audited',
  tags: ['v1'],
  access: STAFF,
  params: IdParamsSchema,
  body: UpdateLocalEstimateBodySchema,
  responses: { 200: LocalEstimateSchema, ...errorsFor(400, 401, 403, 404, 409) },
});

export const deleteLocalEstimate = defineRoute({
  method: 'DELETE',
  path: '/api/v1/local-estimates/:id',
  summary:
    'Delete a local estimate (curators and administrators). `version` (the one the curator saw) is required: ' +
    '409 with `current` when it changed since, 400 without it. Audited',
  tags: ['v1'],
  access: STAFF,
  params: IdParamsSchema,
  query: RequiredVersionQuerySchema,
  responses: { 200: z.object({ code: z.literal('success') }), ...errorsFor(400, 401, 403, 404, 409) },
});
