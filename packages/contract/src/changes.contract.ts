import { z } from 'zod';
import { errorsFor, ErrorSchema, IdSchema } from './common.js';
import { defineRoute } from './route.js';
import { EstimateVersionSchema } from './estimates.contract.js';
import { V1_DEFAULT_LIMIT, V1_MAX_LIMIT } from './v1.contract.js';

/** A cursor is a whole number written as text: opaque to a reader, who passes back what it was given. */
const CURSOR_PATTERN = /^(0|[1-9][0-9]{0,14})$/;

export const ChangeCursorSchema = z
  .string()
  .describe('Opaque position in the feed (today a whole number as text): pass back `next_cursor`');

/** One published change (issue 30.1, decision 056). Never a person's name. */
export const ChangeSchema = z.object({
  cursor: ChangeCursorSchema.describe('This change’s position; `since` = this cursor resumes after it'),
  at: z.string().describe('When the change was committed (ISO 8601)'),
  entity: z.enum(['estimate', 'dataset', 'reference', 'measurand']),
  id: z
    .number()
    .int()
    .describe(
      'The record’s id: the estimate id (`/api/v1/estimates/{id}/history`), the dataset, reference or measurand id',
    ),
  action: z
    .enum(['created', 'changed', 'withdrawn'])
    .describe(
      'created: now shown (a new record, a dataset published, an estimate shown again); changed: shown with new values; ' +
        'withdrawn: no longer shown (deleted, a dataset unpublished, an estimate left without datasets)',
    ),
  measurand_id: z
    .number()
    .int()
    .optional()
    .describe('The measurand an estimate, a dataset or a measurand change belongs to'),
  estimate_id: z.number().int().optional().describe('Estimates: the stable estimate id'),
  version: z.number().int().optional().describe('Estimates: the version this change wrote'),
  from: EstimateVersionSchema.optional().describe(
    'Estimates: the previous version as the history shows it (absent for a first version)',
  ),
  to: EstimateVersionSchema.optional().describe('Estimates: the new version as the history shows it'),
});
export type Change = z.infer<typeof ChangeSchema>;

export const v1Changes = defineRoute({
  method: 'GET',
  path: '/api/v1/changes',
  summary:
    'Every published change once, in commit order, after a cursor (estimates, datasets, references, measurands)',
  tags: ['v1'],
  access: 'public',
  query: z.object({
    since: z
      .string()
      .regex(CURSOR_PATTERN, 'must be a cursor from a previous answer (a whole number, 0 for the start)')
      .default('0')
      .transform(Number)
      .describe(
        'Answer the changes after this cursor (`next_cursor` of the previous answer; 0 or none: from the start)',
      ),
    limit: z.coerce
      .number()
      .int()
      .min(1)
      .max(V1_MAX_LIMIT)
      .default(V1_DEFAULT_LIMIT)
      .describe(`Changes per answer, 1–${V1_MAX_LIMIT} (default ${V1_DEFAULT_LIMIT})`),
  }),
  responses: {
    200: z.object({
      data: z.array(ChangeSchema),
      next_cursor: ChangeCursorSchema.describe(
        'Pass as `since` to continue: the last change’s cursor, or `since` itself when nothing is new',
      ),
      has_more: z.boolean().describe('True when more changes follow at once (ask again with `next_cursor`)'),
    }),
    ...errorsFor(400),
  },
});

export const changesAtom = defineRoute({
  method: 'GET',
  path: '/changes.atom',
  summary:
    'Atom 1.0 feed of the latest published changes, newest first (the same entries as `/api/v1/changes`)',
  tags: ['v1'],
  access: 'public',
  produces: 'application/atom+xml',
  responses: { 200: z.unknown() },
});

export const analyteChangesAtom = defineRoute({
  method: 'GET',
  path: '/analytes/:id/changes.atom',
  summary:
    'Atom 1.0 feed of the latest published changes of one measurand: its estimates, datasets and record',
  tags: ['v1'],
  access: 'public',
  produces: 'application/atom+xml',
  params: z.object({ id: IdSchema }),
  responses: { 200: z.unknown(), 400: ErrorSchema, 404: ErrorSchema },
});
