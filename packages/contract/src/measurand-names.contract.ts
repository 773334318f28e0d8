import { z } from 'zod';
import { ErrorSchema, IdParamsSchema, PositiveInt4Schema, errorsFor } from './common.js';
import { defineRoute, STAFF } from './route.js';

/** At most this many alternative names per measurand. */
export const MEASURAND_NAMES_MAX = 100;

export const MeasurandNameSchema = z.object({
  name: z.string(),
  source: z
    .string()
    .nullable()
    .describe('Where the name is written (a seed row cites it); null for a curator’s own'),
});

export const MeasurandNamesSchema = z.object({
  measurand_id: z.number().int(),
  version: z.number().int().describe('The measurand’s version: send it back with a change'),
  names: z.array(MeasurandNameSchema),
});
export type MeasurandNames = z.infer<typeof MeasurandNamesSchema>;

export const UpdateMeasurandNamesBodySchema = z
  .object({
    names: z
      .array(
        z.string().trim().min(1, 'A name cannot be empty').max(200, 'A name must be at most 200 characters'),
      )
      .max(MEASURAND_NAMES_MAX, `At most ${MEASURAND_NAMES_MAX} alternative names`),
    version: PositiveInt4Schema,
  })
  .strict();
export type UpdateMeasurandNamesBody = z.infer<typeof UpdateMeasurandNamesBodySchema>;

export const getMeasurandNames = defineRoute({
  method: 'GET',
  path: '/api/v1/measurands/:id/names',
  summary:
    'The alternative names a measurand goes by as laboratories write them (decision 083): the test menu matches lines by them',
  tags: ['v1'],
  access: 'public',
  params: IdParamsSchema,
  responses: { 200: MeasurandNamesSchema, 404: ErrorSchema },
});

export const updateMeasurandNames = defineRoute({
  method: 'PUT',
  path: '/api/v1/measurands/:id/names',
  summary:
    'Replace a measurand’s alternative names; 409 with `current` when someone saved after `version`, or when a name (as matched: case, spelling, word order aside) is another measurand’s; 400 when two names of the list are the same name',
  tags: ['v1'],
  access: STAFF,
  params: IdParamsSchema,
  body: UpdateMeasurandNamesBodySchema,
  responses: { 200: MeasurandNamesSchema, ...errorsFor(400, 401, 403, 404, 409) },
});
