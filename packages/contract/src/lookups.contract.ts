import { z } from 'zod';
import { ErrorSchema, IdParamsSchema, errorsFor, INT4_MAX } from './common.js';
import { defineRoute } from './route.js';

export const MatrixSchema = z.object({
  id: z.number().int(),
  matrix_expansion: z.string(),
  matrix_explanation: z.string().nullable(),
});
export type Matrix = z.infer<typeof MatrixSchema>;

export const StateOfWellBeingSchema = z.object({
  id: z.number().int(),
  state_of_well_being_descriptor_expansion: z.string(),
  state_of_well_being_descriptor_explanation: z.string().nullable(),
});
export type StateOfWellBeing = z.infer<typeof StateOfWellBeingSchema>;

export const DiseaseSchema = z.object({ id: z.number().int(), item_type: z.string() });
export type Disease = z.infer<typeof DiseaseSchema>;

export const EthnicitySchema = z.object({ id: z.number().int(), ethnicity_expansion: z.string() });
export type Ethnicity = z.infer<typeof EthnicitySchema>;

export const UnitSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  usage_count: z.number().int().nonnegative(),
  version: z.number().int(),
});
export type Unit = z.infer<typeof UnitSchema>;

export const MethodSchema = z.object({ id: z.number().int(), name: z.string() });

export const listMatrices = defineRoute({
  method: 'GET',
  path: '/api/matrices',
  summary: 'All matrices (sample types)',
  tags: ['lookups'],
  access: 'public',
  responses: { 200: z.object({ matrices: z.array(MatrixSchema) }) },
});

export const getMatrix = defineRoute({
  method: 'GET',
  path: '/api/matrices/:id',
  summary: 'One matrix',
  tags: ['lookups'],
  access: 'public',
  params: IdParamsSchema,
  responses: { 200: z.object({ matrix: MatrixSchema }), 404: ErrorSchema },
});

export const MatrixConsolidationSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  matrix_ids: z.array(z.number().int()),
});

export const findMatrixConsolidations = defineRoute({
  method: 'GET',
  path: '/api/matrix_consolidations/find',
  summary: 'The matrix (or consolidation of matrices) for a list of matrix ids',
  tags: ['lookups'],
  access: 'public',
  query: z.object({
    ids: z
      .union([z.string(), z.array(z.string())])
      .transform((v) =>
        (Array.isArray(v) ? v : v.split(','))
          .map((s) => s.trim())
          .filter(Boolean)
          .map(Number),
      )
      .pipe(
        z
          .array(
            z
              .number()
              .int('ids must be whole numbers')
              .positive('ids must be positive')
              .max(INT4_MAX, `ids must be at most ${INT4_MAX}`),
          )
          .min(1, 'ids must name at least one matrix'),
      ),
  }),
  responses: {
    200: z.object({
      matrix: MatrixSchema.pick({ matrix_expansion: true, matrix_explanation: true }),
      consolidation: MatrixConsolidationSchema.nullable(),
    }),
    ...errorsFor(400, 404),
  },
});

export const getStateOfWellBeing = defineRoute({
  method: 'GET',
  path: '/api/state_of_well_beings/:id',
  summary: 'One state of well-being',
  tags: ['lookups'],
  access: 'public',
  params: IdParamsSchema,
  responses: { 200: z.object({ state_of_well_being: StateOfWellBeingSchema }), 404: ErrorSchema },
});

export const getDiseasesOfDataset = defineRoute({
  method: 'GET',
  path: '/api/diseases/:id',
  summary: 'The disease states linked to a dataset',
  tags: ['lookups'],
  access: 'public',
  params: IdParamsSchema,
  responses: { 200: z.object({ diseases: z.array(DiseaseSchema) }), 404: ErrorSchema },
});

export const LookupsSchema = z.object({
  matrices: z.array(MatrixSchema),
  states_of_well_being: z.array(StateOfWellBeingSchema),
  diseases: z.array(DiseaseSchema),
  ethnicities: z.array(EthnicitySchema),
  units: z.array(z.object({ id: z.number().int(), name: z.string() })),
  methods: z.array(MethodSchema),
});

export const getLookups = defineRoute({
  method: 'GET',
  path: '/api/lookups',
  summary: 'Every lookup list a form needs, in one call',
  tags: ['lookups'],
  access: 'public',
  responses: { 200: LookupsSchema },
});
