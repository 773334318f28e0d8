import { APS_LEVEL_NAMES } from '@bvdb/domain';
import { z } from 'zod';
import {
  ApplicationsEstimateSchema,
  ApplicationsQuerySchema,
  ApplicationsRangeSchema,
  PopulationRowSchema,
  PopulationSchema,
  PROBABILITY_MESSAGE,
  RCV_PROBABILITY_MAX,
} from './applications.contract.js';
import { errorsFor } from './common.js';
import { FacetQuerySchema } from './facets.contract.js';
import { defineRoute } from './route.js';

/**
 * A laboratory's test menu judged against BV (issue 32 points 2, 3 and 5, decision 059): a list of
 * tests with the laboratory's CVA and bias in, per test the measurand it matches (or the candidates),
 * the APS level each measure meets, sigma, the RCV and II with the lab's CVA, out. Nothing is stored.
 */

/** Tests of one menu: a large laboratory has a few hundred. */
export const MENU_MAX_TESTS = 1000;
/** A CSV or JSON body: the server's body limit. */
export const MENU_MAX_TEXT_BYTES = 1024 * 1024;
/** An uploaded .xlsx or CSV file (multipart). */
export const MENU_MAX_FILE_BYTES = 2 * 1024 * 1024;

/** The columns of a menu file; every one optional but a line needs a name or a code. */
export const MENU_COLUMNS = ['name', 'code', 'matrix', 'unit', 'cva', 'bias', 'te'] as const;
export type MenuColumn = (typeof MENU_COLUMNS)[number];

/** Header names read as each column, compared lower-case without anything but letters and digits. */
export const MENU_HEADER_ALIASES: Record<MenuColumn, readonly string[]> = {
  name: ['name', 'test', 'testname', 'measurand', 'analyte', 'measurandname'],
  code: ['code', 'loinc', 'npu', 'snomed', 'snomedct', 'measurandid', 'id'],
  matrix: ['matrix', 'specimen', 'sampletype', 'system'],
  unit: ['unit', 'units'],
  cva: ['cva', 'cvapercent', 'cv', 'imprecision', 'cvpercent', 'analyticalcv'],
  bias: ['bias', 'biaspercent'],
  te: ['te', 'tepercent', 'totalerror', 'tae'],
};

/**
 * A laboratory's percentage (issue 43.3): finite, at most 10,000 % in size, and 0 or at least
 * 0.000001 % in size. Sigma divides by the CVA: a subnormal one (5e-324) overflows to Infinity.
 */
export const LAB_PERCENT_MIN = 1e-6;
export const LAB_PERCENT_MAX = 10_000;
const percent = (name: string) =>
  z
    .number({ message: `${name} must be a number` })
    .finite(`${name} must be a finite number`)
    .refine(
      (v) => v === 0 || (Math.abs(v) >= LAB_PERCENT_MIN && Math.abs(v) <= LAB_PERCENT_MAX),
      `${name} must be 0 or between ${LAB_PERCENT_MIN} and ${LAB_PERCENT_MAX} in size`,
    )
    .describe(`${name}, %`);

export const MenuTestInputSchema = z
  .object({
    name: z.string().trim().max(300).optional().describe('The test name (exact name or alternative name)'),
    code: z
      .string()
      .trim()
      .max(100)
      .optional()
      .describe("A LOINC, NPU or SNOMED CT code (the measurand's or a dataset's) or the measurand id"),
    matrix: z
      .string()
      .trim()
      .max(200)
      .optional()
      .describe("Matrix name; without it the measurand's headline matrix"),
    unit: z.string().trim().max(100).optional().describe('Echoed in the answer and the sheet'),
    cva: percent('cva').min(0, 'cva must be 0 or more').optional(),
    bias: percent('bias').optional(),
    te: percent('te')
      .min(0, 'te must be 0 or more')
      .optional()
      .describe('TE, %; without it |bias| + 1.65·CVA'),
  })
  .strict();
export type MenuTestInput = z.infer<typeof MenuTestInputSchema>;

export const MenuQuerySchema = ApplicationsQuerySchema.pick({ level: true, probability: true })
  .extend({
    format: z
      .enum(['json', 'xlsx'])
      .default('json')
      .describe('json (default) or xlsx: the sheet as a workbook'),
  })
  // A population (issue 47.3): each test judged against its measurand's estimates for the facets.
  .extend(FacetQuerySchema.shape);
export type MenuQuery = z.infer<typeof MenuQuerySchema>;

export const MenuJsonBodySchema = z
  .object({
    tests: z
      .array(MenuTestInputSchema)
      .min(1, 'has no tests')
      .max(MENU_MAX_TESTS, `at most ${MENU_MAX_TESTS} tests`),
    level: z.enum(APS_LEVEL_NAMES).optional().describe('Overrides the query; default desirable'),
    probability: z
      .number({ message: 'probability must be a number' })
      .gt(0.5, PROBABILITY_MESSAGE)
      .max(RCV_PROBABILITY_MAX, PROBABILITY_MESSAGE)
      .optional()
      .describe('Overrides the query; default 0.95'),
  })
  .strict();
export type MenuJsonBody = z.infer<typeof MenuJsonBodySchema>;

const JudgementSchema = z
  .enum(['optimal', 'desirable', 'minimum', 'none'])
  .nullable()
  .describe('The best APS level met (value ≤ specification); null when it cannot be judged');

const MeasuresSchema = <T extends z.ZodTypeAny>(t: T) =>
  z.object({ imprecision: t, bias: t, total_error: t, mau: t });
const LevelsSchema = <T extends z.ZodTypeAny>(t: T) => z.object({ optimal: t, desirable: t, minimum: t });

const RangeOrNull = ApplicationsRangeSchema.nullable();
const SpecValueSchema = z.object({
  value: z.number().nullable(),
  range: RangeOrNull,
  why: z.string().nullable(),
});

export const MenuCandidateSchema = z.object({
  measurand_id: z.number().int(),
  display_name: z.string(),
  matrix: z.string(),
});
export type MenuCandidate = z.infer<typeof MenuCandidateSchema>;

export const MenuEstimateSchema = ApplicationsEstimateSchema.extend({
  estimate_id: z.number().int().nullable().describe('The estimate (decision 052); null without history'),
  version: z.number().int().nullable().describe("The estimate's version in force"),
  permalink: z
    .string()
    .describe('The estimate on the site: `/analytes/{id}?matrix=…&type=CVI|CVG` (decision 027)'),
  as_shown: z
    .string()
    .describe("The measurand's results as the site showed them when the sheet was made (`as_of`)"),
});

export const MenuTestResultSchema = z.object({
  line: z
    .number()
    .int()
    .describe(
      'The test’s place in the menu, from 1 (a file’s header and blank rows not counted), as the page, the sheet and a kept link number it',
    ),
  input: MenuTestInputSchema,
  status: z.enum(['matched', 'unmatched', 'ambiguous']),
  why: z.string().nullable().describe('Why the line is not matched'),
  match: MenuCandidateSchema.nullable(),
  candidates: z
    .array(MenuCandidateSchema)
    .describe(
      'To choose from when unmatched or ambiguous: the first 20 (by measurand id, headline matrix first)',
    ),
  candidates_total: z
    .number()
    .int()
    .describe('How many candidates there are in all; more than listed when a name many measurands share'),
  lab: z.object({
    cva: z.number().nullable(),
    bias: z.number().nullable().describe('|bias|, as judged'),
    te: z.number().nullable(),
    te_source: z.enum(['given', 'computed']).nullable().describe('computed: |bias| + 1.65·CVA'),
    expanded_uncertainty: z.number().nullable().describe('U = 2·CVA (k = 2), judged against the MAU'),
  }),
  aps_met: MeasuresSchema(JudgementSchema).nullable(),
  aps_met_over_limits: MeasuresSchema(JudgementSchema)
    .nullable()
    .describe("Judged against the strictest specification the estimates' limits give"),
  specs: LevelsSchema(MeasuresSchema(SpecValueSchema)).nullable().describe('APS of each level, with ranges'),
  sigma: LevelsSchema(z.number().nullable())
    .nullable()
    .describe('(TEa − |bias|)/CVA per level; null without CVA > 0 and bias'),
  sigma_ranges: LevelsSchema(RangeOrNull).nullable(),
  rcv: z.object({ up: z.number(), down: z.number() }).nullable().describe("With the lab's CVA, %"),
  rcv_ranges: z.object({ up: RangeOrNull, down: RangeOrNull }).nullable(),
  ii: z.number().nullable(),
  ii_range: RangeOrNull,
  ii_with_cva: z.number().nullable().describe('√(CVI² + CVA²)/CVG'),
  ii_with_cva_range: RangeOrNull,
  prri_useful: z
    .boolean()
    .nullable()
    .describe('II (with the lab CVA when given) < 0.6: a personalised reference interval helps'),
  estimate: MenuEstimateSchema.nullable().describe('The CVI estimate used'),
  estimate_cvg: MenuEstimateSchema.nullable().describe('The CVG estimate used'),
  population: PopulationRowSchema.optional().describe(
    'With facet.*: the population the test was judged for (estimate and estimate_cvg are its estimates, never the global ones)',
  ),
});
export type MenuTestResult = z.infer<typeof MenuTestResultSchema>;

export const MenuResponseSchema = z.object({
  parameters: z.object({
    level: z.enum(APS_LEVEL_NAMES),
    probability: z.number(),
    z: z.number(),
    generated_at: z.string().describe('When the sheet was made (ISO 8601)'),
  }),
  summary: z.object({
    tests: z.number().int(),
    matched: z.number().int(),
    unmatched: z.number().int(),
    ambiguous: z.number().int(),
  }),
  sources: z.record(z.string(), z.string()),
  tests: z.array(MenuTestResultSchema),
  population: PopulationSchema.optional().describe('With facet.*: the population every test was judged for'),
});
export type MenuResponse = z.infer<typeof MenuResponseSchema>;

export const MENU_SOURCES = {
  aps: 'Fraser CG et al., Ann Clin Biochem 1997;34:8-12; MAU 1.5/1/0.5·CVI: Sandberg S et al., CCLM 2024;62:1483-9',
  judgement:
    "A measure meets a level when the lab's value ≤ that level's specification; the best level met is given",
  te: "The lab's TE when given, otherwise |bias| + 1.65·CVA",
  mau: "The lab's expanded uncertainty U = 2·CVA (k = 2, imprecision as the standard uncertainty) against the MAU",
  sigma: 'Sigma = (TEa − |bias|)/CVA for each level’s TEa (Westgard)',
  rcv: "Log-normal RCV with the lab's CVA: Fokkema MR et al., Clin Chem 2006;52:1602-3",
  ii: 'II = CVI/CVG (Harris EK, Clin Chem 1974;20:1535-42); with CVA √(CVI²+CVA²)/CVG (Fraser & Harris, Crit Rev Clin Lab Sci 1989;27:409-37)',
  prri: 'A personalised reference interval is worth offering when the II is below 0.6 (Harris 1974; Coskun A et al., Clin Chem 2021;67:374-84)',
  ranges:
    "Each value recomputed with the estimates' lower and upper limits (lowest and highest); the lab's CVA and bias held",
} as const;

export const createMenu = defineRoute({
  method: 'POST',
  path: '/api/v1/menu',
  summary:
    "Judge a laboratory's test menu against BV: `text/csv` text with a header row, multipart/form-data " +
    'with one part `file` (.xlsx or CSV), or JSON `{tests, level?, probability?}`. Each test is matched to a ' +
    'measurand by exact name, alternative name or code (unmatched or ambiguous tests come back with candidates), ' +
    'then the APS level its CVA, bias, TE and uncertainty meet, sigma, RCV and II with its CVA. ' +
    `At most ${MENU_MAX_TESTS} tests (422). \`format=xlsx\` answers the sheet as a workbook. Nothing is stored`,
  tags: ['v1'],
  access: 'public',
  body: z.unknown().describe('CSV text, multipart with a file, or MenuJsonBody'),
  query: MenuQuerySchema,
  responses: { 200: MenuResponseSchema, ...errorsFor(400, 413, 422, 503) },
});

export const MENU_TEMPLATE_FILES = ['menu_template.csv', 'menu_template.xlsx'] as const;

export const getMenuTemplate = defineRoute({
  method: 'GET',
  path: '/api/v1/menu/:file',
  summary: 'The test-menu template with a worked example: `menu_template.csv` or `menu_template.xlsx`',
  tags: ['v1'],
  access: 'public',
  params: z.object({ file: z.enum(MENU_TEMPLATE_FILES) }),
  produces: 'text/csv',
  responses: { 200: z.unknown(), ...errorsFor(400) },
});
