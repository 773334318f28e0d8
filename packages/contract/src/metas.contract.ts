import { ESTIMATE_EVIDENCE, LIMITS_KINDS } from '@bvdb/domain';
import { z } from 'zod';
import { AnalyteSchema } from './analytes.contract.js';
import { ErrorSchema, errorsFor, IdSchema } from './common.js';
import { defineRoute } from './route.js';

export const VarTypeSchema = z.enum([':cvi', ':cvg']);

/** What the lower and upper limits of a result are (issue 27.7, decision 043). */
export const LimitsKindSchema = z
  .enum(LIMITS_KINDS)
  .nullable()
  .describe(
    'What `lower` and `upper` are: "95 % CI" (bootstrap of more than 10 studies, or the one study\'s own CI) or "range" (min–max of 2–10 study estimates); null without a result',
  );
/** What kind of evidence an estimate is (issue 47.4, decision 099). */
export const EstimateEvidenceSchema = z
  .object({
    class: z.enum(ESTIMATE_EVIDENCE),
    label: z.string(),
  })
  .describe(
    'What kind of evidence the estimate is: "range" when its limits are the range of too few studies, else the evidence class its studies share ("direct-anova", "direct-bayesian", "indirect"), "mixed" when they differ; `label` says it in words',
  );

const LIMIT_LOWER = 'Lower limit in %: a 95 % CI or the range of the studies; `limits` says which';
const LIMIT_UPPER = 'Upper limit in %: a 95 % CI or the range of the studies; `limits` says which';
export type VarType = z.infer<typeof VarTypeSchema>;

export const MetaDatasetSchema = z.object({
  bv_specification_id: z.number().int(),
  reference_id: z.number().int(),
  reference_title: z.string(),
  study_id: z.string(),
  grade: z.string(),
  cv: z.number(),
  ci_lower: z.number(),
  ci_upper: z.number(),
  weight: z.number().describe('Normalised weight of its (collapsed) study in the weighted median'),
});

export const MetaRecordSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  analyte_id: z.number().int(),
  var_type: VarTypeSchema,
  median: z.number().nullable(),
  lower: z.number().nullable(),
  upper: z.number().nullable(),
  number_used: z.number().int(),
  comments: z.string().nullable(),
  display: z.boolean(),
  matrix: z.string(),
  matrix_id: z.number().int().nullable(),
  matrix_consolidation_id: z.number().int().nullable(),
  method: z.enum(['none', 'single', 'range', 'bootstrap']),
  limits: LimitsKindSchema,
  seed: z.number().int().nullable(),
  references_array: z.string().describe('Bracketed comma-separated reference ids, e.g. "[3, 7]"'),
  datasets: z.array(MetaDatasetSchema),
  computed_at: z.string(),
  updated_at: z.string(),
});
export type MetaRecord = z.infer<typeof MetaRecordSchema>;

export const MetaListItemSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  analyte_id: z.number().int(),
  analyte_display_name: z.string(),
  var_type: VarTypeSchema,
  matrix: z.string(),
  median: z.number().nullable(),
  lower: z.number().nullable(),
  upper: z.number().nullable(),
  limits: LimitsKindSchema,
  number_used: z.number().int(),
  updated_at: z.string(),
});

export const getCounters = defineRoute({
  method: 'GET',
  path: '/api/meta',
  summary: 'Counters of the home page',
  tags: ['metas'],
  access: 'public',
  responses: {
    200: z.object({
      meta_data: z.object({
        total_bv_specifications: z.number().int(),
        total_metas: z.number().int(),
        total_references: z.number().int(),
      }),
    }),
  },
});

/**
 * The matrix of a result as the live API sends it: an object, never a bare string. For a matrix
 * consolidation `id` is null and `matrix_expansion` is the consolidation's name.
 */
export const LegacyMatrixSchema = z.object({
  id: z.number().int().nullable().describe('Matrix id; null when the result is of a matrix consolidation'),
  matrix_expansion: z.string().describe('Matrix name, e.g. "Serum" (or the consolidation name)'),
});

/** A headline result as `/api/meta_calculations` sends it: every number present, so `float()` never fails. */
export const HeadlineMetaSchema = z.object({
  id: z.number().int().describe('Stable id of the meta-analysis result'),
  name: z.string(),
  var_type: VarTypeSchema.describe('":cvi" within-subject CV, ":cvg" between-subject CV'),
  median: z.number().describe('Weighted median CV, in %'),
  lower: z.number().describe(LIMIT_LOWER),
  upper: z.number().describe(LIMIT_UPPER),
  limits: LimitsKindSchema,
  number_used: z.number().int().describe('Number of studies in the meta-analysis'),
  matrix: LegacyMatrixSchema,
  matrix_id: z.number().int().nullable(),
  matrix_consolidation_id: z.number().int().nullable(),
  updated_at: z.string().describe('When the estimate last changed (ISO 8601)'),
});

const pageQuery = (max: number) =>
  z.object({
    limit: z.coerce.number().int().min(1).max(max).optional(),
    offset: z.coerce.number().int().min(0).optional(),
    format: z.enum(['json']).optional(),
  });

export const listMetaCalculations = defineRoute({
  method: 'GET',
  path: '/api/meta_calculations',
  summary:
    'Legacy: one entry per measurand with the results of its headline matrix (one per type; docs/decisions/007)',
  tags: ['metas', 'legacy'],
  access: 'public',
  query: pageQuery(1000),
  responses: {
    200: z.object({
      code: z.literal('success'),
      data: z.array(z.object({ analyte: AnalyteSchema, metas: z.array(HeadlineMetaSchema) })),
      total: z.number().int().describe('Number of measurands with a headline result (all pages)'),
    }),
    400: ErrorSchema,
  },
});

/** One stored result with the datasets behind it; `matrix` is the live API's object. */
export const LegacyMetaRecordSchema = MetaRecordSchema.extend({ matrix: LegacyMatrixSchema });

export const metaByAnalyte = defineRoute({
  method: 'GET',
  path: '/api/meta_calculations/meta_by_analyte/:id',
  summary: 'Legacy: the meta-analysis results of one measurand (all matrices, CVI and CVG)',
  tags: ['metas', 'legacy'],
  access: 'public',
  params: z.object({ id: IdSchema }),
  responses: {
    200: z.object({
      data: z.array(
        z.object({
          analyte: z.object({ id: z.number().int(), display_name: z.string() }),
          metas: z.array(LegacyMetaRecordSchema),
        }),
      ),
    }),
    ...errorsFor(400, 404),
  },
});

/** One headline estimate as `/api/measurands` sends it. */
export const MeasurandEstimateSchema = z.object({
  id: z.number().int().describe('Stable id of the meta-analysis result'),
  median: z.number().describe('Weighted median CV, in %'),
  lower: z.number().describe(LIMIT_LOWER),
  upper: z.number().describe(LIMIT_UPPER),
  limits: LimitsKindSchema,
  number_used: z.number().int().describe('Number of studies in the meta-analysis'),
  updated_at: z
    .string()
    .describe('When this estimate last changed (ISO 8601); a recompute that changes nothing keeps it'),
});

export const listMeasurands = defineRoute({
  method: 'GET',
  path: '/api/measurands',
  summary:
    'Legacy: every measurand with a result, with the CVI and CVG of its headline matrix (docs/decisions/007)',
  tags: ['metas', 'legacy'],
  access: 'public',
  query: z.object({ format: z.enum(['json']).optional() }),
  responses: {
    200: z.object({
      data: z.array(
        z.object({
          analyte: z.object({ id: z.number().int(), display_name: z.string() }),
          metas: z
            .array(
              z.object({
                matrix: LegacyMatrixSchema,
                cvi: MeasurandEstimateSchema.nullable().describe('Within-subject CV; null when none'),
                cvg: MeasurandEstimateSchema.nullable().describe('Between-subject CV; null when none'),
              }),
            )
            .describe('One item: the headline matrix'),
        }),
      ),
    }),
    400: ErrorSchema,
  },
});

export const metaByAnalyteMatrixType = defineRoute({
  method: 'GET',
  path: '/api/meta_calculations/by_analyte_matrix_type/:analyte/:matrix/:type',
  summary: 'Meta calculations for a measurand, matrix and type (`cvi`, `:cvi`, `cvg` or `:cvg`)',
  tags: ['metas'],
  access: 'public',
  params: z.object({
    analyte: IdSchema,
    matrix: IdSchema,
    type: z
      .string()
      .transform((t) => (t.startsWith(':') ? t : `:${t}`))
      .pipe(VarTypeSchema),
  }),
  responses: {
    200: z.object({ metacalculations: z.array(z.object({ id: z.number().int(), name: z.string() })) }),
    ...errorsFor(400, 404),
  },
});
