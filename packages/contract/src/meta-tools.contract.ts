import { z } from 'zod';
import { ErrorSchema, errorsFor, IdSchema } from './common.js';
import { defineRoute, STAFF } from './route.js';
import { StatsResultSchema, StatsRowSchema } from './stats.contract.js';

/** One estimate as the statistics service receives it (the row the recomputation would send). */
export const MetaInputRowSchema = z.object({
  ID: z.string(),
  Include: z.boolean(),
  Score: z.enum(['A', 'B', 'C', 'D']),
  CV: z.number().nullable(),
  CI_lower: z.number().nullable(),
  CI_upper: z.number().nullable(),
});
export type MetaInputRow = z.infer<typeof MetaInputRowSchema>;

const EstimateSchema = z.object({
  cv: z.number().nullable(),
  ci_lower: z.number().nullable(),
  ci_upper: z.number().nullable(),
  ci_source: z.enum(['reported', 'calculated']).nullable().describe('Where the CI comes from'),
  input_row: MetaInputRowSchema,
});

export const ValidationSpecSchema = z.object({
  id: z.number().int(),
  unique_identifier: z.string(),
  reference: z.object({ id: z.number().int(), title: z.string() }),
  analyte: z.object({ id: z.number().int(), display_name: z.string() }),
  matrix: z.object({ id: z.number().int(), matrix_expansion: z.string() }).nullable(),
  grade: z.string().describe('Overall BIVAC grade (worst item), or "NA"'),
  include_in_meta_analysis: z.union([z.literal(0), z.literal(1)]),
  healthy: z.union([z.literal(0), z.literal(1)]),
  cvi: EstimateSchema,
  cvg: EstimateSchema,
});
export type ValidationSpec = z.infer<typeof ValidationSpecSchema>;

/** [result, reason]: 1 = enters the meta-analysis, 0 = does not, and why. */
export const ValidationResultSchema = z.tuple([z.union([z.literal(0), z.literal(1)]), z.string()]);
export const ValidationRowSchema = z.tuple([
  ValidationSpecSchema,
  ValidationResultSchema,
  ValidationResultSchema,
]);
export type ValidationRow = z.infer<typeof ValidationRowSchema>;

export const validateForMeta = defineRoute({
  method: 'POST',
  path: '/api/bv_specifications/validate_for_meta',
  summary:
    'Whether each dataset enters the meta-analysis for CVI and for CVG, and why not (the rules of the recomputation). Unknown ids are listed in `not_found`.',
  tags: ['meta-tools'],
  access: STAFF,
  body: z.object({ ids: z.array(IdSchema).min(1).max(1000) }),
  responses: {
    200: z.object({
      output: z.array(ValidationRowSchema),
      not_found: z.array(z.number().int()),
    }),
    ...errorsFor(400, 401),
  },
});

export const simulateMetacalculation = defineRoute({
  method: 'POST',
  path: '/api/meta_tools/metacalculation',
  summary:
    'Runs rows through the configured statistics service (STATS_URL, else the built-in one) and answers with N, W.Median, the limits and the per-study weights',
  tags: ['meta-tools'],
  access: STAFF,
  body: z.object({
    rows: z.array(StatsRowSchema).max(10_000),
    seed: z.number().int().min(0).max(4294967295).optional(),
  }),
  responses: {
    200: StatsResultSchema.extend({
      source: z.enum(['built-in', 'remote']).describe('Which statistics service answered'),
      bvdb_rule: StatsResultSchema.describe(
        "What bvdb's own recompute would publish from these rows: its eligibility rule (grade D and zero-width CIs left out), where the statistics service keeps them",
      ),
    }),
    ...errorsFor(400, 401, 502),
  },
});

export const statsServiceInfo = defineRoute({
  method: 'GET',
  path: '/api/meta_tools/stats_service',
  summary: 'The statistics service the meta-analysis uses and the URL of its health check',
  tags: ['meta-tools'],
  access: STAFF,
  responses: {
    200: z.object({
      status_url: z.string().describe('GET it: a body of "OK" means healthy'),
      metacalculation_url: z.string(),
      external: z.boolean().describe('True when STATS_URL points to an outside service'),
    }),
    401: ErrorSchema,
  },
});

export const InputTableSchema = z.object({
  label: z.string().describe('Matrix or matrix consolidation'),
  matrix_id: z.number().int().nullable(),
  matrix_consolidation_id: z.number().int().nullable(),
  within: z.string().describe('CSV: ID,Include,Score,CV,CI_lower,CI_upper, one line per dataset'),
  between: z.string(),
});

export const metaInputTables = defineRoute({
  method: 'GET',
  path: '/api/meta_tools/input_tables/:analyte_id',
  summary: 'The CSV input rows the meta-analysis of one measurand uses, per matrix and consolidation',
  tags: ['meta-tools'],
  access: STAFF,
  params: z.object({ analyte_id: IdSchema }),
  responses: {
    200: z.object({
      analyte: z.object({ id: z.number().int(), display_name: z.string() }),
      tables: z.array(InputTableSchema),
    }),
    ...errorsFor(401, 404),
  },
});
