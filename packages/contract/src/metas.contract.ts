import { z } from 'zod';
import { ErrorSchema, errorsFor } from './common.js';
import { defineRoute } from './route.js';

export const VarTypeSchema = z.enum([':cvi', ':cvg']);
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

export const listMetaCalculations = defineRoute({
  method: 'GET',
  path: '/api/meta_calculations',
  summary: 'Every displayed meta-analysis result',
  tags: ['metas'],
  access: 'public',
  query: z.object({
    limit: z.coerce.number().int().min(1).max(5000).optional(),
    offset: z.coerce.number().int().min(0).optional(),
  }),
  responses: {
    200: z.object({ code: z.literal('success'), data: z.array(MetaListItemSchema), total: z.number().int() }),
    400: ErrorSchema,
  },
});

export const metaByAnalyte = defineRoute({
  method: 'GET',
  path: '/api/meta_calculations/meta_by_analyte/:id',
  summary: 'The meta-analysis results of one measurand (all matrices, CVI and CVG)',
  tags: ['metas'],
  access: 'public',
  params: z.object({ id: z.coerce.number().int().positive() }),
  responses: {
    200: z.object({
      data: z.array(
        z.object({
          analyte: z.object({ id: z.number().int(), display_name: z.string() }),
          metas: z.array(MetaRecordSchema),
        }),
      ),
    }),
    404: ErrorSchema,
  },
});

export const metaByAnalyteMatrixType = defineRoute({
  method: 'GET',
  path: '/api/meta_calculations/by_analyte_matrix_type/:analyte/:matrix/:type',
  summary: 'Meta calculations for a measurand, matrix and type (`cvi`, `:cvi`, `cvg` or `:cvg`)',
  tags: ['metas'],
  access: 'public',
  params: z.object({
    analyte: z.coerce.number().int().positive(),
    matrix: z.coerce.number().int().positive(),
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
