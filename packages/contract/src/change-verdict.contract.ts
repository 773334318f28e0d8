import { MAX_RESULTS_AVERAGED } from '@bvdb/domain';
import { z } from 'zod';
import { RCV_PROBABILITY_MAX, ApplicationsRangeSchema, PopulationSchema } from './applications.contract.js';
import { FacetQuerySchema, type FacetQuery } from './facets.contract.js';
import { ErrorSchema } from './common.js';
import { LimitsKindSchema } from './metas.contract.js';
import { defineRoute } from './route.js';

/**
 * The change verdict (issue 45.4): is the change between two results of one person real? A
 * laboratory system names the test by its code (`system|code`, as FHIR tokens are written) or the
 * measurand by id or name, as the test menu matches a line; the matrix defaults to the measurand's
 * headline matrix. Nothing is computed from a missing input: `cva` is required (`desirable` uses
 * half the CVI and says so).
 */
const result = (name: string, min: 'above zero' | 'zero or more') =>
  z.coerce
    .number({ message: `${name} must be a number` })
    .refine((v) => Number.isFinite(v) && (min === 'above zero' ? v > 0 : v >= 0), {
      message: `${name} must be a finite number ${min === 'above zero' ? 'greater than 0' : 'of 0 or more'}`,
    });

const count = (name: string) =>
  z.coerce
    .number({ message: `${name} must be a number` })
    .int(`${name} must be a whole number from 1 to ${MAX_RESULTS_AVERAGED}`)
    .min(1, `${name} must be a whole number from 1 to ${MAX_RESULTS_AVERAGED}`)
    .max(MAX_RESULTS_AVERAGED, `${name} must be a whole number from 1 to ${MAX_RESULTS_AVERAGED}`)
    .default(1);

export const CVA_DESIRABLE = 'desirable';
export const CVA_MESSAGE = `cva is required: your method's analytical CV in % (greater than 0, at most 100), or cva=${CVA_DESIRABLE} for half the CVI`;
export const VERDICT_PROBABILITY_MESSAGE = `probability must be greater than 0.5 and at most ${RCV_PROBABILITY_MAX}`;
export const UNIT2_NEEDS_UNIT_MESSAGE =
  "unit2 is x2's unit when it differs from x1's: give x1's unit as unit too";
export const NAME_THE_TEST_MESSAGE =
  'Name the test: code=<system>|<code> (e.g. http://loinc.org|2160-0) or measurand=<id or name>, not both';

export const ChangeVerdictQuerySchema = z
  .object({
    code: z
      .string()
      .trim()
      .min(1, NAME_THE_TEST_MESSAGE)
      .max(200, 'code must be at most 200 characters')
      .optional()
      .describe("The test's code as `system|code` (LOINC, NPU or SNOMED CT), or the code alone"),
    measurand: z
      .string()
      .trim()
      .min(1, NAME_THE_TEST_MESSAGE)
      .max(200, 'measurand must be at most 200 characters')
      .optional()
      .describe('The measurand by id or by name (its name, full name or an alternative name)'),
    matrix: z
      .string()
      .trim()
      .max(200, 'matrix must be at most 200 characters')
      .optional()
      .describe("The matrix (e.g. Serum); without it the measurand's headline matrix"),
    x1: result('x1', 'above zero').describe('The first (earlier) result, greater than 0'),
    x2: result('x2', 'zero or more').describe('The second result, 0 or more, in the same unit'),
    unit: z
      .string()
      .trim()
      .max(50, 'unit must be at most 50 characters')
      .optional()
      .describe(
        "The results' unit (UCUM); x2's too unless `unit2` is given. A string that is not UCUM is 422",
      ),
    unit2: z
      .string()
      .trim()
      .max(50, 'unit2 must be at most 50 characters')
      .optional()
      .describe(
        "x2's unit (UCUM) when it is not `unit`: x2 is converted to `unit` where UCUM can (commensurable units, no molar mass), 422 where it cannot",
      ),
    cva: z
      .union(
        [
          z.literal(CVA_DESIRABLE),
          z.coerce.number({ message: CVA_MESSAGE }).gt(0, CVA_MESSAGE).max(100, CVA_MESSAGE),
        ],
        { message: CVA_MESSAGE },
      )
      .optional()
      .describe(`Your method's analytical CV in % (required), or \`${CVA_DESIRABLE}\` for 0.5·CVI`),
    probability: z.coerce
      .number({ message: VERDICT_PROBABILITY_MESSAGE })
      .gt(0.5, VERDICT_PROBABILITY_MESSAGE)
      .max(RCV_PROBABILITY_MAX, VERDICT_PROBABILITY_MESSAGE)
      .default(0.95)
      .describe('The probability that a change called significant is real (default 0.95)'),
    direction: z
      .enum(['either', 'one'])
      .default('either')
      .describe(
        'either (default): a change in either direction, two-sided z (0.95 → 1.96); one: a change in one stated direction, one-sided z (0.95 → 1.64)',
      ),
    n1: count('n1').describe('How many results x1 is the mean of (default 1)'),
    n2: count('n2').describe('How many results x2 is the mean of (default 1)'),
  })
  // A population (issue 47.3): the CVI recomputed on the datasets the facets select.
  .extend(FacetQuerySchema.shape)
  .refine((q) => (q.code === undefined) !== (q.measurand === undefined), {
    message: NAME_THE_TEST_MESSAGE,
    path: ['code'],
  })
  .refine((q) => q.unit2 === undefined || q.unit !== undefined, {
    message: UNIT2_NEEDS_UNIT_MESSAGE,
    path: ['unit2'],
  });
/** A verdict's query; the facets (issue 47.3) may be left out by callers that build one (FHIR, batch). */
export type ChangeVerdictQuery = Omit<z.infer<typeof ChangeVerdictQuerySchema>, keyof FacetQuery> &
  Partial<FacetQuery>;

export const V3_INTERPRETATION_SYSTEM = 'http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation';

export const ChangeVerdictSchema = z.object({
  measurand: z.object({ id: z.number().int(), display_name: z.string() }),
  matrix: z.object({
    name: z.string(),
    headline: z.boolean().describe("The measurand's headline matrix (the displayed estimates)"),
  }),
  estimate: z.object({
    id: z
      .number()
      .int()
      .nullable()
      .describe('The estimate (`/api/v1/estimates/{id}`); null before its first version'),
    version: z.number().int().nullable(),
    permalink: z.string().describe('The CVI estimate on the measurand page'),
    cvi: z.object({
      median: z.number(),
      lower: z.number().nullable(),
      upper: z.number().nullable(),
      limits: LimitsKindSchema,
      number_used: z.number().int().describe('N: studies behind the estimate'),
    }),
  }),
  inputs: z.object({
    x1: z.number(),
    x2: z.number(),
    unit: z.string().nullable(),
    unit2: z.string().nullable().describe("x2's unit as sent, when it is not `unit`"),
    converted: z
      .object({
        x2: z.number().describe('x2 in `unit`: the value judged'),
        from: z.string().describe("x2's unit as sent"),
        to: z.string().describe("`unit`, x1's"),
        factor: z.number().describe('x2 (in `unit`) = x2 (as sent) × factor, by UCUM'),
      })
      .nullable()
      .describe("x2 converted to x1's unit by UCUM; null when the two results came in one unit"),
    cva: z.number().describe('The CVA used, %'),
    cva_source: z.enum(['given', 'desirable']).describe('given: `cva` asked; desirable: 0.5·CVI'),
    probability: z.number(),
    direction: z.enum(['either', 'one']),
    z: z.number(),
    n1: z.number().int(),
    n2: z.number().int(),
  }),
  rcv: z.object({
    up: z.number().describe('RCV up, % (positive)'),
    down: z.number().describe('RCV down, % (negative)'),
    up_range: ApplicationsRangeSchema.nullable().describe("Over the CVI's limits; null without limits"),
    down_range: ApplicationsRangeSchema.nullable(),
  }),
  change_pct: z.number().describe('% change from x1 to x2'),
  significant: z.boolean(),
  interpretation: z.object({
    v2_0078: z
      .enum(['U', 'D'])
      .nullable()
      .describe('HL7 v2 table 0078 (OBX-8): U significant change up, D down; null when not significant'),
    v3: z
      .object({ system: z.literal(V3_INTERPRETATION_SYSTEM), code: z.enum(['U', 'D']), display: z.string() })
      .nullable()
      .describe(
        'v3 ObservationInterpretation; null when not significant (there is no code for it, and N means normal)',
      ),
    text: z.string(),
  }),
  source: z.string(),
  population: PopulationSchema.extend({
    studies: z.number().int().describe("Studies behind the population's CVI"),
  })
    .optional()
    .describe(
      'With facet.*: the population the CVI was recomputed for (estimate.cvi is its estimate; estimate.id and version are null)',
    ),
});
export type ChangeVerdictAnswer = z.infer<typeof ChangeVerdictSchema>;

export const CHANGE_VERDICT_SOURCE =
  'Log-normal RCV: Fokkema MR et al., Clin Chem 2006;52:1602-3; means of n results: Fraser CG, CCLM 2011;50:807-12; interpretation codes: HL7 v2 table 0078 and v3 ObservationInterpretation (U, D)';

export const v1ChangeVerdict = defineRoute({
  method: 'GET',
  path: '/api/v1/rcv',
  summary:
    'Change verdict: whether the change between two results of one person exceeds the reference change value, with HL7 v2/v3 interpretation codes',
  tags: ['v1'],
  access: 'public',
  query: ChangeVerdictQuerySchema,
  responses: { 200: ChangeVerdictSchema, 400: ErrorSchema, 404: ErrorSchema, 422: ErrorSchema },
});

/** The most pairs one batch judges (issue 45.5). */
export const RCV_BATCH_MAX = 10_000;
/** A batch's body limit: 10,000 pairs with codes, matrices and two units are about 1.3 MB of JSON. */
export const RCV_BATCH_MAX_BYTES = 4 * 1024 * 1024;

/**
 * A batch as a laboratory system sends it: JSON `{pairs: [...]}` (each pair the single verdict's
 * query: code or measurand, matrix, x1, x2, unit, unit2, cva, n1, n2) or CSV with a header row of those
 * names. Each pair is checked on its own: a bad line gets its message, the rest are answered.
 */
export const ChangeVerdictBatchBodySchema = z.union([
  z
    .object({
      pairs: z
        .array(z.record(z.string(), z.unknown()))
        .min(1, 'pairs must hold at least one pair')
        .max(RCV_BATCH_MAX, `at most ${RCV_BATCH_MAX} pairs in one batch`),
    })
    .describe('JSON: {pairs: [{code|measurand, matrix?, x1, x2, unit?, unit2?, cva, n1?, n2?}]}'),
  z
    .string()
    .describe(
      'CSV (text/csv) with a header row: code or measurand, matrix, x1, x2, unit, unit2, cva, n1, n2',
    ),
]);

export const ChangeVerdictBatchQuerySchema = z
  .object({
    probability: ChangeVerdictQuerySchema.shape.probability,
    direction: ChangeVerdictQuerySchema.shape.direction,
  })
  // A population for every pair (issue 47.3).
  .extend(FacetQuerySchema.shape);

export const ChangeVerdictLineSchema = z.object({
  line: z.number().int().describe('1 for the first pair (the first row after a CSV header)'),
  measurand_id: z.number().int().nullable(),
  display_name: z.string().nullable(),
  matrix: z.string().nullable(),
  estimate_id: z.number().int().nullable(),
  version: z.number().int().nullable(),
  x2_converted: z
    .number()
    .nullable()
    .describe("x2 converted to x1's unit (`unit`) by UCUM; null when both came in one unit"),
  cva: z.number().nullable(),
  cva_source: z.enum(['given', 'desirable']).nullable(),
  change_pct: z.number().nullable(),
  rcv_up: z.number().nullable(),
  rcv_down: z.number().nullable(),
  significant: z.boolean().nullable(),
  interpretation: z
    .enum(['U', 'D'])
    .nullable()
    .describe('HL7 v2 table 0078 / v3: U, D; null when not significant or not judged'),
  status: z
    .number()
    .int()
    .describe('200 judged; else the status the single verdict would answer (400, 404, 422)'),
  error: z.string().nullable(),
  population: z
    .string()
    .nullable()
    .optional()
    .describe(
      'With facet.*: "Population: males, athletes — recomputed from 4 studies" for a judged pair (estimate_id and version are then null); null for a pair not judged',
    ),
});

export const ChangeVerdictBatchSchema = z.object({
  parameters: z.object({ probability: z.number(), direction: z.enum(['either', 'one']) }),
  summary: z.object({
    pairs: z.number().int(),
    judged: z.number().int(),
    significant: z.number().int(),
    errors: z.number().int(),
  }),
  source: z.string(),
  results: z.array(ChangeVerdictLineSchema),
  population: PopulationSchema.optional().describe('With facet.*: the population every pair was judged for'),
});
export type ChangeVerdictBatch = z.infer<typeof ChangeVerdictBatchSchema>;
export type ChangeVerdictLine = z.infer<typeof ChangeVerdictLineSchema>;

export const v1ChangeVerdictBatch = defineRoute({
  method: 'POST',
  path: '/api/v1/rcv',
  summary:
    'Change verdicts in a batch: up to 10,000 pairs (JSON or CSV), each answered in order, a bad line with its message; CSV out with Accept: text/csv',
  tags: ['v1'],
  access: 'public',
  query: ChangeVerdictBatchQuerySchema,
  body: ChangeVerdictBatchBodySchema,
  responses: { 200: ChangeVerdictBatchSchema, 400: ErrorSchema },
});
