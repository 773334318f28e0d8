import { APS_LEVEL_NAMES } from '@bvdb/domain';
import { z } from 'zod';
import { ErrorSchema } from './common.js';
import { FacetQuerySchema } from './facets.contract.js';
import { LimitsKindSchema } from './metas.contract.js';
import { defineRoute } from './route.js';

/**
 * "BV and performance specifications" (issue 32.1): the whole test menu in one table, one row per
 * measurand and matrix, with the APS at a chosen level, the RCV at a chosen probability and the II,
 * each with the range that follows from the estimates' limits (issue 32.5). Unrounded percentages;
 * the page shows one decimal (two for the II).
 */
/**
 * The largest RCV probability (issue 43.3): the RCV takes z up to 6 (the domain's bound), and
 * 2Φ(6) − 1 = 0.999999998027, so 0.999999998 is the last probability with a z inside it.
 */
export const RCV_PROBABILITY_MAX = 0.999999998;
export const PROBABILITY_MESSAGE = `probability must be greater than 0.5 and at most ${RCV_PROBABILITY_MAX}`;

export const ApplicationsQuerySchema = z
  .object({
    level: z
      .enum(APS_LEVEL_NAMES)
      .default('desirable')
      .describe('APS level: minimum, desirable (default) or optimal'),
    probability: z.coerce
      .number({ message: 'probability must be a number' })
      .gt(0.5, PROBABILITY_MESSAGE)
      .max(RCV_PROBABILITY_MAX, PROBABILITY_MESSAGE)
      .default(0.95)
      .describe('Probability that a change in either direction is real, for the RCV (default 0.95: z 1.96)'),
    cva: z.coerce
      .number({ message: 'cva must be a number' })
      .min(0, 'cva must be between 0 and 100')
      .max(100, 'cva must be between 0 and 100')
      .optional()
      .describe(
        "The laboratory's CVA in % for the RCV; without it each row uses its desirable CVA = 0.5·CVI",
      ),
    matrices: z
      .enum(['displayed', 'all'])
      .default('displayed')
      .describe(
        'displayed (default): each measurand in its headline matrix; all: every matrix with an estimate',
      ),
  })
  .extend(FacetQuerySchema.shape);
export type ApplicationsQuery = z.infer<typeof ApplicationsQuerySchema>;

export const ApplicationsRangeSchema = z
  .object({ lower: z.number(), upper: z.number(), limits: LimitsKindSchema.unwrap() })
  .describe(
    "The lowest and highest value over the estimates' lower and upper limits, and what the limits are",
  );

export const ApplicationsValueSchema = z.object({
  value: z
    .number()
    .nullable()
    .describe('At the estimates (weighted medians); null when it cannot be computed'),
  range: ApplicationsRangeSchema.nullable().describe('Null without limits'),
  why: z.string().nullable().describe('Why `value` is null ("no CVG estimate"); null otherwise'),
});

export const ApplicationsEstimateSchema = z.object({
  id: z
    .number()
    .int()
    .nullable()
    .describe(
      "The meta-analysis result (`/api/v1/measurands/{id}/metas`); null for a population's estimate (facet.*: recomputed, never stored)",
    ),
  median: z.number(),
  lower: z.number().nullable(),
  upper: z.number().nullable(),
  limits: LimitsKindSchema,
  number_used: z.number().int().describe('N: studies behind the estimate'),
  updated_at: z
    .string()
    .nullable()
    .describe("When the estimate last changed (ISO 8601); null for a population's estimate"),
});

/**
 * A population (issue 47.3, decision 098): the facets chosen with `facet.*`, in words. Present only
 * when facets are chosen; without them the answer is what it always was.
 */
export const PopulationSchema = z.object({
  selection: z.record(z.string(), z.array(z.string())).describe('The chosen facets, normalised'),
  key: z.string().describe('The selection as one canonical string (sex=males&state=athletes)'),
  label: z.string().describe('The population in words ("males, athletes")'),
  sentence: z
    .string()
    .describe('"Population: males, athletes — recomputed per measurand from its matching studies"'),
});

export const PopulationRowSchema = z.object({
  key: z.string().describe("The population's canonical key"),
  studies: z.number().int().describe("Studies behind this row's population estimates (CVI and CVG); 0: none"),
  note: z
    .string()
    .nullable()
    .describe('"No estimate for this population" when the population has no CVI or CVG here; else null'),
  sentence: z
    .string()
    .describe('"Population: males, athletes — recomputed from 4 studies", or that there is no estimate'),
});

export const ApplicationsRowSchema = z.object({
  measurand_id: z.number().int(),
  display_name: z.string(),
  matrix: z.string(),
  matrix_id: z.number().int().nullable(),
  matrix_consolidation_id: z.number().int().nullable(),
  headline: z.boolean().describe("The measurand's headline matrix (the displayed estimates)"),
  cvi: ApplicationsEstimateSchema.nullable(),
  cvg: ApplicationsEstimateSchema.nullable(),
  aps: z.object({
    imprecision: ApplicationsValueSchema,
    bias: ApplicationsValueSchema,
    total_error: ApplicationsValueSchema,
    mau: ApplicationsValueSchema,
  }),
  rcv: z.object({
    up: ApplicationsValueSchema,
    down: ApplicationsValueSchema,
    cva: z.number().nullable().describe('The CVA the RCV used, %'),
    cva_source: z
      .enum(['desirable', 'user'])
      .describe('desirable: 0.5·CVI of this row; user: the `cva` asked'),
  }),
  ii: ApplicationsValueSchema,
  population: PopulationRowSchema.optional().describe(
    'With facet.*: the population this row was computed for (cvi and cvg are its estimates, never the global ones)',
  ),
});
export type ApplicationsRow = z.infer<typeof ApplicationsRowSchema>;

export const ApplicationsSchema = z.object({
  parameters: z.object({
    level: z.enum(APS_LEVEL_NAMES),
    probability: z.number(),
    z: z.number().describe('Two-sided z of the probability'),
    cva: z.number().nullable(),
    matrices: z.enum(['displayed', 'all']),
  }),
  sources: z.object({
    aps: z.string(),
    rcv: z.string(),
    ii: z.string(),
    ranges: z.string(),
  }),
  data: z.array(ApplicationsRowSchema),
  population: PopulationSchema.optional().describe('With facet.*: the population every row was computed for'),
});
export type Applications = z.infer<typeof ApplicationsSchema>;

export const APPLICATIONS_SOURCES = {
  aps: 'Fraser CG et al., Ann Clin Biochem 1997;34:8-12 (imprecision 0.75/0.5/0.25·CVI, bias 0.375/0.25/0.125·√(CVI²+CVG²), TEa = bias + 1.65·CVA); MAU 1.5/1/0.5·CVI: Sandberg S et al., CCLM 2024;62:1483-9',
  rcv: 'Log-normal RCV: Fokkema MR et al., Clin Chem 2006;52:1602-3; up/down = 100·(exp(±z·√2·√(ln(1+CVA²)+ln(1+CVI²))) − 1); CVA = 0.5·CVI (desirable) unless given',
  ii: 'II = CVI/CVG: Harris EK, Clin Chem 1974;20:1535-42',
  ranges:
    "Each value recomputed with the estimates' lower and upper limits substituted (lowest and highest of the four combinations); the RCV's CVA is held at the row's value",
} as const;

export const v1Applications = defineRoute({
  method: 'GET',
  path: '/api/v1/applications',
  summary:
    'BV and performance specifications: per measurand and matrix the CVI and CVG (limits, N), the APS at a level, the RCV at a probability and the II, each with its range over the limits',
  tags: ['v1'],
  access: 'public',
  query: ApplicationsQuerySchema,
  responses: { 200: ApplicationsSchema, 400: ErrorSchema },
});

export const APPLICATIONS_FILES = ['bv_applications.csv', 'bv_applications.xlsx'] as const;

export const v1ApplicationsFile = defineRoute({
  method: 'GET',
  path: '/api/v1/applications/:file',
  summary:
    'The same table as a file: `bv_applications.csv` or `bv_applications.xlsx` (same query parameters)',
  tags: ['v1'],
  access: 'public',
  produces: 'application/octet-stream',
  params: z.object({ file: z.enum(APPLICATIONS_FILES) }),
  query: ApplicationsQuerySchema,
  responses: { 200: z.unknown(), 400: ErrorSchema },
});
