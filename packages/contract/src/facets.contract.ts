import { FACETS } from '@bvdb/domain';
import { z } from 'zod';
import { errorsFor, IdSchema } from './common.js';
import { EstimateEvidenceSchema, LimitsKindSchema, VarTypeSchema } from './metas.contract.js';
import { defineRoute } from './route.js';

/**
 * Population facets (issue 47, decision 096): `?facet.sex=males&facet.state=athletes,healthy`.
 * A facet's values are OR (repeat the parameter or separate by commas), facets are AND.
 */
const facetValues = (facet: string) =>
  z
    .union([z.string(), z.array(z.string())])
    .optional()
    .transform((v) =>
      v === undefined
        ? undefined
        : [
            ...new Set(
              (Array.isArray(v) ? v : [v])
                .flatMap((s) => s.split(','))
                .map((s) => s.trim().toLowerCase())
                .filter(Boolean),
            ),
          ].sort(),
    )
    .describe(
      `Values of the ${facet} facet (GET /api/v1/measurands/{id}/facets lists them), comma-separated`,
    );

export const FacetQuerySchema = z.object({
  'facet.sex': facetValues('sex'),
  'facet.age': facetValues('age band'),
  'facet.state': facetValues('state of well-being'),
  'facet.disease': facetValues('disease'),
  'facet.ethnicity': facetValues('ethnicity'),
  'facet.interval': facetValues('sampling interval'),
  'facet.method': facetValues('analytical method'),
  'facet.matrix': facetValues('matrix'),
  'facet.evidence': facetValues('evidence class (direct-anova, direct-bayesian, indirect)'),
});
export type FacetQuery = z.infer<typeof FacetQuerySchema>;

/** The chosen facets of a parsed query, by facet name (empty when none was chosen). */
export function facetSelectionOf(
  query: Partial<FacetQuery>,
): Partial<Record<(typeof FACETS)[number], string[]>> {
  const out: Partial<Record<(typeof FACETS)[number], string[]>> = {};
  for (const facet of FACETS) {
    const values = query[`facet.${facet}`];
    if (values && values.length > 0) out[facet] = values;
  }
  return out;
}

/**
 * Whether a body names a population at all: any `facet.*` key sent, even empty (a kept menu's
 * update and copy then replace the population with the facets sent; none with a value: the global
 * estimate).
 */
export const facetsSent = (query: Partial<FacetQuery>): boolean =>
  FACETS.some((facet) => query[`facet.${facet}`] !== undefined);

const FacetNameSchema = z.enum(FACETS);

export const FacetValueCountSchema = z.object({
  value: z.string().describe('What to send as facet.<facet>=…'),
  label: z.string(),
  datasets: z.number().int().describe('Datasets of the measurand with this value'),
});

export const v1MeasurandFacets = defineRoute({
  method: 'GET',
  path: '/api/v1/measurands/:id/facets',
  summary: "Each population facet of a measurand's datasets with its values and how many datasets have each",
  tags: ['v1'],
  access: 'public',
  params: z.object({ id: IdSchema }),
  responses: {
    200: z.object({
      analyte: z.object({ id: z.number().int(), display_name: z.string() }),
      datasets: z.number().int().describe('Datasets of the measurand'),
      facets: z.array(
        z.object({
          facet: FacetNameSchema,
          label: z.string(),
          values: z.array(FacetValueCountSchema),
          unknown: z
            .number()
            .int()
            .describe('Datasets with no value for this facet (left out once it is chosen)'),
        }),
      ),
    }),
    ...errorsFor(404),
  },
});

export const FacetEstimateSchema = z.object({
  name: z.string(),
  var_type: VarTypeSchema,
  matrix: z.string(),
  matrix_id: z.number().int().nullable(),
  matrix_consolidation_id: z.number().int().nullable(),
  median: z.number().nullable(),
  lower: z.number().nullable(),
  upper: z.number().nullable(),
  limits: LimitsKindSchema,
  method: z.enum(['none', 'single', 'range', 'bootstrap']),
  seed: z.number().int().nullable(),
  number_used: z.number().int(),
  evidence: EstimateEvidenceSchema,
  note: z
    .string()
    .nullable()
    .describe('"One study: its own estimate and CI" when one study matches; else null'),
  datasets: z.array(
    z.object({
      bv_specification_id: z.number().int(),
      reference_id: z.number().int(),
      study_id: z.string(),
      grade: z.string(),
      cv: z.number(),
      ci_lower: z.number(),
      ci_upper: z.number(),
      weight: z.number(),
    }),
  ),
});

export const FacetComparisonSchema = z.object({
  facet: FacetNameSchema,
  var_type: VarTypeSchema,
  matrix: z.string(),
  a: z.object({ value: z.string(), label: z.string(), median: z.number(), number_used: z.number().int() }),
  b: z.object({ value: z.string(), label: z.string(), median: z.number(), number_used: z.number().int() }),
  method: z
    .string()
    .describe(
      'Mixed-effects subgroup test on ln CV (REML τ²), as metafor rma(yi, vi, mods = ~ factor(group)) QM; Borenstein et al. 2009 ch. 19',
    ),
  q: z.number().describe('Between-subgroup Q (QM)'),
  df: z.number().int(),
  p: z.number(),
  tau2: z.number(),
  sentence: z.string(),
});

/** What `GET /api/v1/measurands/{id}/metas` adds when facets are chosen. */
export const FacetAnswerSchema = z.object({
  selection: z.record(z.string(), z.array(z.string())).describe('The chosen facets, normalised'),
  key: z.string().describe('The selection as one canonical string (sex=males&state=athletes,healthy)'),
  permalink: z
    .string()
    .describe(
      'The measurand page showing this population: /analytes/{id}?facet.sex=males&facet.state=athletes (with as_of when the answer is of a past moment)',
    ),
  datasets: z.number().int().describe('Datasets matching the facets'),
  note: z.string().nullable().describe('"No study matches these facets" when no estimate results; else null'),
  metas: z.array(FacetEstimateSchema),
  comparisons: z.array(FacetComparisonSchema),
});
