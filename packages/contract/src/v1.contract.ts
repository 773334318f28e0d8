import { z } from 'zod';
import { ErrorSchema, errorsFor, IdSchema, isoDateSchema, isoDateTimeSchema } from './common.js';
import { DatasetSchema } from './datasets.contract.js';
import { FacetAnswerSchema, FacetQuerySchema } from './facets.contract.js';
import {
  EstimateEvidenceSchema,
  LimitsKindSchema,
  MetaListItemSchema,
  MetaRecordSchema,
} from './metas.contract.js';
import { defineRoute } from './route.js';

/**
 * The versioned API for new consumers (`/api/v1/…`): every list is paged with `limit`/`offset` and
 * answers `{meta: {total, limit, offset, next_offset}, data}`; lists take `updated_since`; every answer
 * carries an ETag (send If-None-Match for a 304). The legacy paths stay as the compatibility layer.
 */
export const V1_MAX_LIMIT = 1000;
export const V1_DEFAULT_LIMIT = 100;

export const V1PageQuerySchema = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(V1_MAX_LIMIT)
    .default(V1_DEFAULT_LIMIT)
    .describe(`Page size, 1–${V1_MAX_LIMIT} (default ${V1_DEFAULT_LIMIT})`),
  offset: z.coerce.number().int().min(0).default(0).describe('Items to skip; past the end: an empty page'),
  updated_since: isoDateTimeSchema('updated_since must be an ISO 8601 timestamp with an offset')
    .optional()
    .describe('Only items whose updated_at is at or after this instant (ISO 8601 with offset)'),
});

export const V1PageMetaSchema = z.object({
  total: z.number().int().describe('Number of items matching, over all pages'),
  limit: z.number().int(),
  offset: z.number().int(),
  next_offset: z.number().int().nullable().describe('The offset of the next page; null on the last page'),
});

const page = <T extends z.ZodType>(item: T) => z.object({ meta: V1PageMetaSchema, data: z.array(item) });

export const v1ListDatasets = defineRoute({
  method: 'GET',
  path: '/api/v1/datasets',
  summary: 'Visible datasets, ordered by id, one page at a time',
  tags: ['v1'],
  access: 'public',
  query: V1PageQuerySchema.extend({
    analyte_id: IdSchema.optional().describe('Only the datasets of this measurand'),
  }),
  responses: { 200: page(DatasetSchema), 400: ErrorSchema },
});

export const v1GetDataset = defineRoute({
  method: 'GET',
  path: '/api/v1/datasets/:id',
  summary: 'One visible dataset',
  tags: ['v1'],
  access: 'public',
  params: z.object({ id: IdSchema }),
  responses: { 200: z.object({ data: DatasetSchema }), ...errorsFor(400, 404) },
});

export const v1BulkDatasets = defineRoute({
  method: 'GET',
  path: '/api/v1/bulk/datasets',
  summary:
    'The whole catalogue of visible datasets in one answer, ordered by id and streamed: {meta: {generated_at}, data, total}',
  tags: ['v1'],
  access: 'public',
  responses: {
    200: z.object({
      meta: z.object({ generated_at: z.string().describe('When the answer was started (ISO 8601)') }),
      data: z.array(DatasetSchema),
      total: z.number().int().describe('Number of items in data (sent last)'),
    }),
  },
});

/** An estimate's stable id and the version shown (issue 29.4, decision 052). */
export const EstimateRefSchema = z.object({
  estimate_id: z
    .number()
    .int()
    .nullable()
    .describe(
      'Stable id of the estimate (GET /api/v1/estimates/{id}/history); null for a result without a history',
    ),
  version: z.number().int().nullable().describe('The version of the estimate this value is'),
});

/** `as_of`: a day (its end, UTC) or an instant. */
export const AsOfSchema = z
  .union([isoDateSchema('as_of must be a date'), isoDateTimeSchema()], {
    error:
      'as_of must be an ISO 8601 date (2026-01-31) or timestamp (2026-01-31T12:00:00Z) from 0001-01-01 to 9999-12-31',
  })
  .optional()
  .describe(
    'Answer what the site showed at this moment: an ISO 8601 date (its end, UTC) or timestamp with offset',
  );

/** A result in the v1 measurand answer: the read shape with its estimate and version. */
export const V1MetaRecordSchema = MetaRecordSchema.extend(EstimateRefSchema.shape).extend({
  evidence: EstimateEvidenceSchema,
});

/** A headline estimate of a measurand (decision 007). */
export const V1EstimateSchema = z.object({
  meta_id: z.number().int().describe('Stable id of the meta-analysis result'),
  median: z.number().describe('Weighted median CV of the included studies, in %'),
  lower: z.number().describe('Lower limit in %: a 95 % CI or the range of the studies; `limits` says which'),
  upper: z.number().describe('Upper limit in %: a 95 % CI or the range of the studies; `limits` says which'),
  limits: LimitsKindSchema,
  number_used: z.number().int().describe('Number of studies in the meta-analysis'),
  updated_at: z.string().describe('When the estimate last changed (ISO 8601)'),
  estimate_id: EstimateRefSchema.shape.estimate_id,
  version: EstimateRefSchema.shape.version,
});

export const V1HeadlineSchema = z.object({
  matrix_id: z.number().int().nullable().describe('The matrix; null for a matrix consolidation'),
  matrix_consolidation_id: z.number().int().nullable(),
  matrix: z.string().describe('Matrix (or consolidation) name'),
  cvi: V1EstimateSchema.nullable().describe('Within-subject CV; null when there is none for this matrix'),
  cvg: V1EstimateSchema.nullable().describe('Between-subject CV; null when there is none for this matrix'),
});

/** A code of a measurand as the v1 answers carry it (issue 45.3). */
export const V1MeasurandCodeSchema = z.object({
  system: z.string().describe('http://loinc.org, http://npu-terminology.org or http://snomed.info/sct'),
  code: z.string(),
  display: z.string().nullable(),
  matrix: z.string().nullable().describe('The matrix the code names; null when it names none'),
  ucum_unit: z.string().nullable().describe('The unit scale (UCUM) the code names; null when none'),
});

export const V1CodeMatchSchema = V1MeasurandCodeSchema.extend({
  measurand_id: z.number().int().describe('The measurand the code names'),
  matrix_id: z.number().int().nullable(),
});

const codeQuery = (what: string) =>
  z
    .string()
    .trim()
    .min(1, `${what} cannot be empty`)
    .max(240, `${what} must be at most 240 characters`)
    .optional();

export const V1MeasurandSchema = z.object({
  id: z.number().int().describe('Stable measurand id (kept as imported: the live glucose is 1518)'),
  display_name: z.string(),
  full_name: z.string().nullable(),
  alternate_names: z.array(z.string()),
  headline: V1HeadlineSchema.nullable().describe(
    'The headline matrix (both CVI and CVG first, then most studies, then lowest id; docs/decisions/007); null without results',
  ),
  updated_at: z.string().describe('The latest updated_at of the measurand and its headline estimates'),
  codes: z
    .array(V1MeasurandCodeSchema)
    .describe('Its LOINC, NPU and SNOMED CT codes, each for a matrix and a unit scale when it names them'),
});

export const v1ListMeasurands = defineRoute({
  method: 'GET',
  path: '/api/v1/measurands',
  summary: 'Measurands with their headline CVI and CVG, ordered by id, one page at a time',
  tags: ['v1'],
  access: 'public',
  query: V1PageQuerySchema.extend({
    as_of: AsOfSchema,
    code: codeQuery('code').describe(
      'Only the measurand this code names, as `system|code` (e.g. http://loinc.org|2345-7; the system may be LOINC, NPU or SNOMED CT) or the code alone; 404 when no measurand has it',
    ),
    loinc: codeQuery('loinc').describe(
      'Only the measurand this LOINC code names (`code=http://loinc.org|…`)',
    ),
    npu: codeQuery('npu').describe(
      'Only the measurand this NPU code names (`code=http://npu-terminology.org|…`)',
    ),
  }).refine((q) => [q.code, q.loinc, q.npu].filter((c) => c !== undefined).length <= 1, {
    message: 'Give one of code, loinc and npu',
    path: ['code'],
  }),
  responses: {
    200: z.object({
      meta: V1PageMetaSchema.extend({
        code: V1CodeMatchSchema.optional().describe(
          'With code, loinc or npu: the code found, and what it names',
        ),
      }),
      data: z.array(V1MeasurandSchema),
    }),
    ...errorsFor(400, 404),
  },
});

export const v1MetasOfMeasurand = defineRoute({
  method: 'GET',
  path: '/api/v1/measurands/:id/metas',
  summary:
    'Every displayed meta-analysis result of one measurand (all matrices), with the datasets behind each',
  tags: ['v1'],
  access: 'public',
  params: z.object({ id: IdSchema }),
  query: z.object({ as_of: AsOfSchema }).extend(FacetQuerySchema.shape),
  responses: {
    200: z.object({
      analyte: z.object({ id: z.number().int(), display_name: z.string() }),
      as_of: z.string().nullable().describe('The moment answered (ISO 8601), when as_of was given'),
      headline: V1HeadlineSchema.nullable(),
      metas: z.array(V1MetaRecordSchema),
      facets: FacetAnswerSchema.nullable()
        .optional()
        .describe(
          'With facet.* chosen: the estimates recomputed on the matching datasets and the subgroup tests; headline and metas stay the global estimates',
        ),
    }),
    ...errorsFor(400, 404),
  },
});

export const v1ListMetas = defineRoute({
  method: 'GET',
  path: '/api/v1/metas',
  summary: 'Every displayed meta-analysis result, by measurand name, matrix and type, one page at a time',
  tags: ['v1'],
  access: 'public',
  query: V1PageQuerySchema,
  responses: { 200: page(MetaListItemSchema), 400: ErrorSchema },
});
