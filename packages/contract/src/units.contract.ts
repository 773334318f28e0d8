import { z } from 'zod';
import {
  ErrorSchema,
  IdParamsSchema,
  RequiredVersionQuerySchema,
  errorsFor,
  PositiveInt4Schema,
} from './common.js';
import { UnitSchema } from './lookups.contract.js';
import { defineRoute, STAFF } from './route.js';

export const UnitBodySchema = z
  .object({
    name: z.string().trim().min(1, 'Name is required').max(100, 'Name must be at most 100 characters'),
  })
  .strict();

export const UpdateUnitBodySchema = UnitBodySchema.extend({ version: PositiveInt4Schema }).strict();

export const listUnits = defineRoute({
  method: 'GET',
  path: '/api/units',
  summary: 'Units with how many datasets use each (as unit or second unit)',
  tags: ['units'],
  access: STAFF,
  responses: { 200: z.object({ data: z.array(UnitSchema) }), 401: ErrorSchema },
});

export const createUnit = defineRoute({
  method: 'POST',
  path: '/api/units',
  summary: 'Add a unit; 409 when the name exists',
  tags: ['units'],
  access: STAFF,
  body: UnitBodySchema,
  responses: {
    201: z.object({ unit: UnitSchema }),
    ...errorsFor(400, 401, 403, 409),
  },
});

export const updateUnit = defineRoute({
  method: 'PUT',
  path: '/api/units/:id',
  summary: 'Rename a unit; 409 with `current` when someone saved after `version`, or when the name exists',
  tags: ['units'],
  access: STAFF,
  params: IdParamsSchema,
  body: UpdateUnitBodySchema,
  responses: {
    200: z.object({ unit: UnitSchema }),
    ...errorsFor(400, 401, 403, 404, 409),
  },
});

export const deleteUnit = defineRoute({
  method: 'DELETE',
  path: '/api/units/:id',
  summary:
    'Delete a unit; 409 while datasets use it. `version` (the one the person saw) is required: 409 with `current` when it changed since, 400 without it',
  tags: ['units'],
  access: STAFF,
  params: IdParamsSchema,
  query: RequiredVersionQuerySchema,
  responses: {
    200: z.object({ code: z.literal('success') }),
    ...errorsFor(400, 401, 403, 404, 409),
  },
});
