import { z } from 'zod';
import { errorsFor, IdSchema } from './common.js';
import { defineRoute } from './route.js';
import { V1PageMetaSchema, V1PageQuerySchema } from './v1.contract.js';
import { VarTypeSchema } from './metas.contract.js';

/** What changed an estimate (decision 048): a role, never a person's name. */
export const EstimateCauseSchema = z.object({
  kind: z
    .enum(['dataset', 'appraisal', 'import', 'lookup', 'initial'])
    .describe(
      "dataset: a dataset saved, copied or deleted; appraisal: final grades; import: a bulk upload or whole-database import; lookup: a curator's recompute after a matrix change; initial: the value the estimate had when its history began",
    ),
  dataset_id: z.number().int().optional().describe('The dataset whose change caused it, when one did'),
  role: z.string().describe('The role of who caused it: admin, curator, assessor, or system'),
});

/** One version of an estimate (issue 29.4, decision 052). */
export const EstimateVersionSchema = z.object({
  version: z.number().int().describe('1 for the first value; one more for each change a reader could see'),
  withdrawn: z
    .boolean()
    .describe(
      'True when the estimate stopped being shown (its datasets were removed or excluded); values are then null',
    ),
  median: z.number().nullable().describe('Weighted median CV in %'),
  lower: z
    .number()
    .nullable()
    .describe('Lower limit in %; `limits` says whether a 95 % CI or the range of the studies'),
  upper: z
    .number()
    .nullable()
    .describe('Upper limit in %; `limits` says whether a 95 % CI or the range of the studies'),
  limits: z
    .enum(['ci', 'range'])
    .nullable()
    .describe('"ci": a 95 % confidence interval; "range": min–max of 2–10 studies'),
  number_used: z.number().int().describe('Number of studies used'),
  datasets: z
    .array(
      z.object({ id: z.number().int().describe('Dataset id'), value: z.number().describe('Its CV in %') }),
    )
    .describe('The datasets used, by id, with the CV each contributed'),
  computed_at: z.string().describe('When this version was computed (ISO 8601): shown from then on'),
  cause: EstimateCauseSchema,
});
export type EstimateVersion = z.infer<typeof EstimateVersionSchema>;

export const EstimateIdentitySchema = z.object({
  id: z.number().int().describe('Stable estimate id: survives recomputes'),
  measurand_id: z.number().int(),
  matrix_id: z.number().int().nullable().describe('The matrix; null for a matrix consolidation'),
  matrix_consolidation_id: z.number().int().nullable(),
  var_type: VarTypeSchema,
});

export const v1EstimateHistory = defineRoute({
  method: 'GET',
  path: '/api/v1/estimates/:id/history',
  summary: 'The versions of one estimate, newest first, one page at a time',
  tags: ['v1'],
  access: 'public',
  params: z.object({ id: IdSchema }),
  // The v1 paging parameters, as every v1 list takes them.
  query: V1PageQuerySchema.pick({ limit: true, offset: true }),
  responses: {
    200: z.object({
      estimate: EstimateIdentitySchema,
      meta: V1PageMetaSchema,
      data: z.array(EstimateVersionSchema),
    }),
    ...errorsFor(400, 404),
  },
});
