import { z } from 'zod';
import { ErrorSchema, IdParamsSchema } from './common.js';
import { defineRoute } from './route.js';

export const AnalyteSchema = z.object({
  id: z.number().int(),
  display_name: z.string(),
  full_name: z.string().describe('"No Full Name Set" when empty'),
  alternate_names: z.array(z.string()),
  loinc: z.string().nullable(),
  npu: z.string().nullable(),
  snomed_ct: z.string().nullable(),
  default: z.boolean(),
  display_data: z.boolean(),
  is_demo: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Analyte = z.infer<typeof AnalyteSchema>;

export const AnalyteWithCountSchema = AnalyteSchema.extend({
  bv_specifications_count: z.number().int().nonnegative(),
});
export type AnalyteWithCount = z.infer<typeof AnalyteWithCountSchema>;

export const getAnalyte = defineRoute({
  method: 'GET',
  path: '/api/analytes/:id',
  summary: 'One measurand',
  tags: ['analytes'],
  access: 'public',
  params: IdParamsSchema,
  responses: { 200: z.object({ analyte: AnalyteSchema }), 404: ErrorSchema },
});

export const listAnalytesWithCounts = defineRoute({
  method: 'GET',
  path: '/api/analytes_with_bv_specifications',
  summary: 'Measurands with the number of visible datasets of each',
  tags: ['analytes'],
  access: 'public',
  responses: { 200: z.object({ analytes: z.array(AnalyteWithCountSchema) }) },
});
