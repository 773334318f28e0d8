import { z } from 'zod';
import { errorsFor, PROBABILITY_EPSILON } from './common.js';
import { defineRoute } from './route.js';

/**
 * Biological variation estimated from a study's raw results (issue 31, decision 054): a long-format
 * file or JSON rows in, the outlier pipeline, checks and estimates of the domain engine out. Nothing
 * is stored.
 */

/** Rows of one estimation (a 10,000-row file answers in well under 2 s). */
export const ESTIMATION_MAX_ROWS = 10_000;
/** A CSV, TSV or JSON body: the server's body limit (1 MB holds 10,000 rows of CSV several times over). */
export const ESTIMATION_MAX_TEXT_BYTES = 1024 * 1024;
/** An uploaded .xlsx (multipart): 10,000 rows of four columns are about 200 KB. */
export const ESTIMATION_MAX_FILE_BYTES = 2 * 1024 * 1024;

/** The columns a row carries; `replicate`, `group` and `date` are optional in a file. */
export const ESTIMATION_COLUMNS = ['subject', 'sample', 'replicate', 'value', 'group', 'date'] as const;
export type EstimationColumn = (typeof ESTIMATION_COLUMNS)[number];

/**
 * Header names accepted for each column without a mapping, compared lower-case with everything but
 * letters and digits dropped ("Subject ID" = "subject_id" = "subjectid").
 */
export const ESTIMATION_HEADER_ALIASES: Record<EstimationColumn, readonly string[]> = {
  subject: [
    'subject',
    'subjectid',
    'subjectno',
    'participant',
    'participantid',
    'patient',
    'patientid',
    'individual',
    'person',
    'volunteer',
    'id',
  ],
  sample: [
    'sample',
    'sampleno',
    'samplenumber',
    'sampleid',
    'timepoint',
    'time',
    'visit',
    'occasion',
    'week',
    'day',
    'collection',
  ],
  replicate: ['replicate', 'rep', 'replicateno', 'replicatenumber', 'duplicate', 'repeat', 'analysis', 'run'],
  value: ['value', 'result', 'results', 'concentration', 'conc', 'measurement', 'activity', 'y'],
  group: ['group', 'sex', 'gender', 'stratum', 'cohort'],
  date: ['date', 'datetime', 'sampledate', 'sampletime', 'samplingdate', 'collectiondate', 'collectedat'],
};

const ALPHA_MESSAGE = `alpha must be at least ${PROBABILITY_EPSILON} and less than 0.5`;
/** A significance level: inside (0, 0.5) at the precision of the quantile functions (issue 43.3). */
const AlphaSchema = z
  .number({ message: 'alpha must be a number' })
  .min(PROBABILITY_EPSILON, ALPHA_MESSAGE)
  .lt(0.5, ALPHA_MESSAGE);

export const EstimationOptionsSchema = z
  .object({
    alpha: AlphaSchema.default(0.05).describe('Significance of every test; intervals are 1 − alpha'),
    replicate_outlier: z
      .enum(['sample', 'subject', 'none'])
      .default('sample')
      .describe(
        'What an outlying replicate pair (Cochran) removes: that sample, the whole subject, or nothing (step off)',
      ),
    sample_outlier: z.boolean().default(true).describe("Cochran's C on the within-subject variances"),
    reed: z.boolean().default(true).describe("Reed's criterion on the subject means"),
    bootstrap: z
      .object({
        replicates: z.number().int().min(100).max(10_000),
        seed: z.number().int().min(0).max(4294967295),
      })
      .strict()
      .optional()
      .describe('Subject-level percentile bootstrap intervals, seeded (off unless given)'),
  })
  .strict();
export type EstimationOptionsInput = z.input<typeof EstimationOptionsSchema>;

const cell = z.union([z.string().max(200), z.number()]);
export const EstimationRowInputSchema = z
  .object({
    subject: cell.transform(String).pipe(z.string().trim().min(1, 'must not be empty')),
    sample: cell.transform(String).pipe(z.string().trim().min(1, 'must not be empty')),
    replicate: cell.optional(),
    value: z.number().nullable().describe('null for a missing result: counted and reported, never imputed'),
    group: z.string().trim().max(100).optional(),
  })
  .strict();
export type EstimationRowInput = z.input<typeof EstimationRowInputSchema>;

export const EstimationJsonBodySchema = z
  .object({
    rows: z.array(EstimationRowInputSchema).min(1, 'has no rows').max(ESTIMATION_MAX_ROWS),
    options: EstimationOptionsSchema.optional(),
  })
  .strict();
export type EstimationJsonBody = z.input<typeof EstimationJsonBodySchema>;

/** Options and column mapping of a file upload, in the query string. */
export const EstimationQuerySchema = z
  .object({
    alpha: z.coerce.number().pipe(AlphaSchema).optional(),
    replicate_outlier: z.enum(['sample', 'subject', 'none']).optional(),
    sample_outlier: z.enum(['true', 'false']).optional(),
    reed: z.enum(['true', 'false']).optional(),
    bootstrap_replicates: z.coerce.number().int().min(100).max(10_000).optional(),
    bootstrap_seed: z.coerce.number().int().min(0).max(4294967295).optional(),
    subject_column: z.string().max(200).optional(),
    sample_column: z.string().max(200).optional(),
    replicate_column: z.string().max(200).optional(),
    value_column: z.string().max(200).optional(),
    group_column: z.string().max(200).optional(),
    date_column: z.string().max(200).optional(),
    format: z
      .enum(['json', 'xlsx'])
      .optional()
      .describe('xlsx: the same report as a workbook (estimates, exclusions, checks, results, input)'),
  })
  .strict();
export type EstimationQuery = z.infer<typeof EstimationQuerySchema>;

// Numbers that can be undefined in the engine (an infinite upper limit, a 0/0) are null here.
const num = z.number().nullable();
const interval = z.tuple([num, num]).describe('[lower, upper]');

const EstimateSetSchema = z.object({
  cva: num.describe('%'),
  cvi: num.describe('%'),
  cvg: num.optional().describe('% (classic only)'),
  cva_ci: interval,
  cvi_ci: interval,
  cvg_ci: interval.optional(),
  variance_components: z.object({ analytical: num, within: num, between: num.optional() }),
  bootstrap: z
    .object({
      cva_ci: interval,
      cvi_ci: interval,
      cvg_ci: interval.optional(),
      replicates: z.number().int(),
      seed: z.number().int(),
    })
    .optional(),
});

const ShapiroSchema = z.object({ n: z.number().int(), w: num, p: num }).nullable();
const PerSubjectNormality = z.object({
  tested: z.number().int(),
  passing: z.number().int(),
  share_passing: num,
});
const ApsLevelSchema = z.object({ imprecision: num, bias: num, totalError: num, mau: num });
const MeanSquareSchema = z.object({ ms: num, df: z.number() });

export const ExclusionSchema = z.object({
  step: z.enum(['replicate_cochran', 'sample_cochran', 'reed']),
  subject: z.string(),
  sample: z.string().optional(),
  statistic: num,
  critical: num,
  p: num.describe("null for Reed's criterion, which has no p-value"),
});
export type Exclusion = z.infer<typeof ExclusionSchema>;

export const EstimationCoreSchema = z.object({
  excluded: z.array(ExclusionSchema),
  n_subjects: z.number().int(),
  n_samples: z.number().int(),
  n_results: z.number().int().describe('Results kept'),
  counts_before: z.object({
    subjects: z.number().int(),
    samples: z.number().int(),
    results: z.number().int(),
    missing: z.number().int(),
  }),
  grand_mean: num,
  anova: z.object({
    between_subjects: MeanSquareSchema,
    between_samples: MeanSquareSchema,
    replicates: MeanSquareSchema,
  }),
  estimates: z.object({ classic: EstimateSetSchema, cv_anova: EstimateSetSchema }),
  derived: z.object({
    source: z.enum(['classic', 'cv_anova']),
    ii: num,
    ii_with_cva: num,
    rcv: z.object({ up: num, down: num }),
    setpoint_samples: z.array(z.object({ within_percent: z.number(), samples: z.number().int() })),
    aps: z.object({ minimum: ApsLevelSchema, desirable: ApsLevelSchema, optimal: ApsLevelSchema }),
    design_cvi_ci: interval.nullable(),
  }),
  checks: z.object({
    steady_state: z
      .object({
        points: z.number().int(),
        slope: num,
        slope_ci: interval,
        slope_percent: num,
        p: num,
        steady: z.boolean(),
      })
      .nullable(),
    normality: z.object({
      per_subject: PerSubjectNormality,
      per_subject_log: PerSubjectNormality,
      subject_means: ShapiroSchema,
      subject_means_log: ShapiroSchema,
      scale: z.enum(['untransformed', 'log', 'cv_anova']),
    }),
    homogeneity: z.object({
      bartlett: z.object({ k_squared: num, df: z.number(), p: num }).nullable(),
      cochran: z
        .object({ c: num, critical: num, p: num, subject: z.string(), homogeneous: z.boolean() })
        .nullable(),
    }),
  }),
});
export type EstimationCore = z.infer<typeof EstimationCoreSchema>;

export const EstimationInputReportSchema = z.object({
  format: z.enum(['csv', 'tsv', 'xlsx', 'json']),
  columns: z
    .record(z.string(), z.string().nullable())
    .describe('The header each column was read from (null: not in the file)'),
  rows: z.number().int().describe('Data rows read'),
  missing: z.object({
    count: z.number().int(),
    rows: z
      .array(
        z.object({
          row: z.number().int().describe('File row (the header is row 1), or JSON row from 1'),
          subject: z.string(),
          sample: z.string(),
          replicate: z.string(),
        }),
      )
      .describe('The first 200 rows without a value: left out, never imputed'),
  }),
  design: z.object({
    balanced: z.boolean().describe('Every subject has the same samples and every sample the same replicates'),
    samples_per_subject: z.object({ min: z.number().int(), max: z.number().int() }),
    replicates_per_sample: z.object({ min: z.number().int(), max: z.number().int() }),
    samples_with_one_replicate: z.number().int(),
    subjects: z.array(
      z.object({
        subject: z.string(),
        group: z.string().nullable(),
        samples: z.number().int(),
        results: z.number().int(),
        missing: z.number().int(),
      }),
    ),
  }),
  sampling: z
    .object({
      dated_samples: z.number().int().describe('Subject × samples with a readable date'),
      unread: z.number().int().describe('Date cells that are not ISO (YYYY-MM-DD[ HH:MM]): not guessed'),
      interval_days: num.describe("Median interval between a subject's consecutive samples, days"),
      span_days: num.describe("Longest span from a subject's first to last sample, days"),
      earliest_time: z.string().nullable().describe('Earliest sampling time (HH:MM); null without times'),
      latest_time: z.string().nullable().describe('Latest sampling time (HH:MM)'),
    })
    .nullable()
    .describe('What the date column says about the sampling (null without a date column)'),
  notes: z.array(z.string()),
});
export type EstimationInputReport = z.infer<typeof EstimationInputReportSchema>;

export const EstimationResponseSchema = EstimationCoreSchema.extend({
  strata: z
    .record(z.string(), z.union([EstimationCoreSchema, z.object({ error: z.string() })]))
    .optional()
    .describe('Each sex or group estimated on its own (or why it cannot be)'),
  options: z.object({
    alpha: z.number(),
    replicate_outlier: z.enum(['sample', 'subject', 'none']),
    sample_outlier: z.boolean(),
    reed: z.boolean(),
    bootstrap: z.object({ replicates: z.number().int(), seed: z.number().int() }).optional(),
  }),
  input: EstimationInputReportSchema,
  subjects: z
    .array(
      z.object({
        subject: z.string(),
        group: z.string().nullable(),
        points: z.array(
          z.object({
            sample: z.string(),
            replicate: z.string(),
            value: z.number(),
            excluded: z.enum(['replicate_cochran', 'sample_cochran', 'reed']).nullable(),
          }),
        ),
      }),
    )
    .describe("Each subject's results as read, with the step that excluded each (for the plot)"),
});
export type EstimationResponse = z.infer<typeof EstimationResponseSchema>;

export const createEstimation = defineRoute({
  method: 'POST',
  path: '/api/v1/estimations',
  summary:
    'Estimate CVA, CVI and CVG from raw results (subject, sample, replicate, value; optional group and date): ' +
    '`text/csv` or `text/tab-separated-values` text with a header row, multipart/form-data with one part ' +
    '`file` (.xlsx or CSV), or JSON `{rows, options}`. File options and column names go in the query. ' +
    `At most ${ESTIMATION_MAX_ROWS.toLocaleString('en')} rows (422), 1 MB of text (413, the server's body limit) and 2 MB of file (413, whatever the file holds). ` +
    'Results × bootstrap resamples at most 10,000,000 (× 2 with groups; 422 naming the resamples that fit). ' +
    'The outlier pipeline, checks, nested ANOVA and CV-ANOVA with intervals; nothing is stored. ' +
    'One estimation at a time per client address: 429 with Retry-After ' +
    'while another of its own runs; 503 with Retry-After when busy',
  tags: ['estimations'],
  access: 'public',
  body: z.unknown().describe('CSV/TSV text, multipart with a file, or EstimationJsonBody'),
  query: EstimationQuerySchema,
  responses: { 200: EstimationResponseSchema, ...errorsFor(400, 413, 422, 429, 503) },
});

export const ESTIMATION_TEMPLATE_FILES = ['template.csv', 'template.xlsx'] as const;

export const getEstimationTemplate = defineRoute({
  method: 'GET',
  path: '/api/v1/estimations/:file',
  summary:
    'The long-format template with a worked example that shows every step (12 subjects × 8 weekly samples × ' +
    '2 replicates; one subject with 5 samples, one result missing, one outlying replicate pair; dated and ' +
    'timed): `template.csv` or `template.xlsx`',
  tags: ['estimations'],
  access: 'public',
  params: z.object({ file: z.enum(ESTIMATION_TEMPLATE_FILES) }),
  produces: 'text/csv',
  responses: { 200: z.unknown(), ...errorsFor(400) },
});
