import { CODE_SYSTEM_URIS } from '@bvdb/domain';
import { z } from 'zod';
import { ErrorSchema, IdParamsSchema, PositiveInt4Schema, errorsFor } from './common.js';
import { defineRoute, STAFF } from './route.js';

/** At most this many codes per measurand. */
export const MEASURAND_CODES_MAX = 200;

const systemDescription = `The code system: ${CODE_SYSTEM_URIS.join(', ')} (LOINC, NPU, SNOMED CT)`;

export const MeasurandCodeSchema = z.object({
  system: z.string().describe(systemDescription),
  code: z.string(),
  display: z.string().nullable().describe("The code system's own name for it; null when not recorded"),
  matrix_id: z.number().int().nullable().describe('The matrix the code names; null when it names none'),
  matrix: z.string().nullable(),
  ucum_unit: z
    .string()
    .nullable()
    .describe('The unit scale (UCUM) the code’s numbers are in; null when the code names none'),
  source: z.string().nullable().describe('Where the code is stated; null for a curator’s own'),
});
export type MeasurandCode = z.infer<typeof MeasurandCodeSchema>;

export const MeasurandCodesSchema = z.object({
  measurand_id: z.number().int(),
  version: z.number().int().describe('The measurand’s version: send it back with a change'),
  codes: z.array(MeasurandCodeSchema),
});
export type MeasurandCodes = z.infer<typeof MeasurandCodesSchema>;

const optionalText = (max: number, what: string) =>
  z
    .string()
    .trim()
    .max(max, `${what} must be at most ${max} characters`)
    .nullish()
    .transform((s) => (s ? s : null));

export const MeasurandCodeInputSchema = z
  .object({
    system: z
      .string()
      .trim()
      .min(1, 'Say the code system')
      .max(200, 'The code system must be at most 200 characters')
      .describe(`${systemDescription}, or LOINC, NPU, SNOMED CT`),
    code: z.string().trim().min(1, 'A code cannot be empty').max(40, 'A code must be at most 40 characters'),
    display: optionalText(500, 'The display'),
    matrix_id: PositiveInt4Schema.nullish().transform((v) => v ?? null),
    ucum_unit: optionalText(60, 'The UCUM unit'),
    source: optionalText(1000, 'The source'),
  })
  .strict();

export const UpdateMeasurandCodesBodySchema = z
  .object({
    codes: z.array(MeasurandCodeInputSchema).max(MEASURAND_CODES_MAX, `At most ${MEASURAND_CODES_MAX} codes`),
    version: PositiveInt4Schema,
  })
  .strict();
export type UpdateMeasurandCodesBody = z.infer<typeof UpdateMeasurandCodesBodySchema>;

export const getMeasurandCodes = defineRoute({
  method: 'GET',
  path: '/api/v1/measurands/:id/codes',
  summary:
    'The LOINC, NPU and SNOMED CT codes of a measurand, each for a matrix and a unit scale when it names them (decision 091)',
  tags: ['v1'],
  access: 'public',
  params: IdParamsSchema,
  responses: { 200: MeasurandCodesSchema, 404: ErrorSchema },
});

export const updateMeasurandCodes = defineRoute({
  method: 'PUT',
  path: '/api/v1/measurands/:id/codes',
  summary:
    'Replace a measurand’s codes; 400 for a code not of its system’s form (a LOINC check digit that does not add up) or an unknown system or matrix; 409 with `current` when someone saved after `version`, or when a code is another measurand’s',
  tags: ['v1'],
  access: STAFF,
  params: IdParamsSchema,
  body: UpdateMeasurandCodesBodySchema,
  responses: { 200: MeasurandCodesSchema, ...errorsFor(400, 401, 403, 404, 409) },
});
