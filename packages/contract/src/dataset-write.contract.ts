import { NON_HEALTHY_STATE_ID } from '@bvdb/domain';
import { z } from 'zod';
import { ErrorSchema, IdParamsSchema, errorsFor, PositiveInt4Schema } from './common.js';
import { DATASET_MESSAGES, datasetShape } from './dataset-fields.js';
import { DatasetSchema } from './datasets.contract.js';
import { defineRoute, STAFF } from './route.js';

// ---- the create/edit payload `bv_specification` (spec sections 3 and 5, decision 002) ----

export const DatasetInputObjectSchema = z.object(datasetShape('input')).strict();

type Issues = readonly { path?: readonly PropertyKey[] | undefined }[];
/** Run a cross-field rule even when other fields are wrong, unless one of its own fields is. */
const whenValid =
  (...keys: string[]) =>
  (payload: { value: unknown; issues: Issues }) =>
    typeof payload.value === 'object' &&
    payload.value !== null &&
    payload.issues.every((i) => !keys.includes(String(i.path?.[0])));

/**
 * The cross-field rules of spec section 5, each reported on the field a person would fix. They run
 * alongside the field rules, so a form shows every message at once.
 */
export const DatasetInputSchema = DatasetInputObjectSchema.refine(
  (v) => !(v.state_of_well_being_id === NON_HEALTHY_STATE_ID && v.disease_state_ids.length === 0),
  {
    path: ['disease_state_ids'],
    message: DATASET_MESSAGES.diseaseStates,
    when: whenValid('state_of_well_being_id', 'disease_state_ids'),
  },
)
  .refine((v) => v.sampling_times_start_time !== null || v.sampling_times_end_time === null, {
    path: ['sampling_times_start_time'],
    message: DATASET_MESSAGES.samplingTimes,
    when: whenValid('sampling_times_start_time', 'sampling_times_end_time'),
  })
  .refine((v) => v.sampling_times_end_time !== null || v.sampling_times_start_time === null, {
    path: ['sampling_times_end_time'],
    message: DATASET_MESSAGES.samplingTimes,
    when: whenValid('sampling_times_start_time', 'sampling_times_end_time'),
  });
/** The payload as sent (numbers, '' or null; flags 0/1 or booleans). */
export type DatasetInputIn = z.input<typeof DatasetInputSchema>;
/** The payload after validation: blanks are null, flags 0/1, disease ids unique and sorted. */
export type DatasetInput = z.output<typeof DatasetInputSchema>;

/**
 * The stored values in the payload's shape, as the edit form loads them (an answer: plain types, no
 * transforms, so the server can check what it sends).
 */
export const DatasetValuesSchema = z.object(datasetShape('value'));
export type DatasetValues = z.infer<typeof DatasetValuesSchema>;

/** What the edit form loads: the editable values and the version they are at. */
export const DatasetFormSchema = z.object({
  id: z.number().int(),
  version: z.number().int(),
  updated_at: z.string(),
  bv_specification: DatasetValuesSchema,
});
export type DatasetForm = z.infer<typeof DatasetFormSchema>;

const writeErrors = {
  400: ErrorSchema,
  401: ErrorSchema,
  403: ErrorSchema,
  422: ErrorSchema,
} as const;

export const createDataset = defineRoute({
  method: 'POST',
  path: '/bv_specifications',
  summary:
    'Create a dataset (BV specification). Body `{bv_specification}`; unknown fields are refused (400), unknown lookup ids are 422 with field messages',
  tags: ['datasets'],
  access: STAFF,
  body: z.object({ bv_specification: DatasetInputSchema }).strict(),
  responses: { 201: z.object({ dataset: DatasetSchema }), ...writeErrors },
});

export const getDatasetForm = defineRoute({
  method: 'GET',
  path: '/api/bv_specifications/:id/form',
  summary: 'The editable values of a dataset and its version, for the edit and copy forms',
  tags: ['datasets'],
  access: STAFF,
  params: IdParamsSchema,
  responses: { 200: DatasetFormSchema, 401: ErrorSchema, 404: ErrorSchema },
});

export const updateDataset = defineRoute({
  method: 'PUT',
  path: '/bv_specifications/:id',
  summary:
    'Replace the values of a dataset. `version` is the one the edit started from; 409 with `current` (the form values now) when someone saved after it',
  tags: ['datasets'],
  access: STAFF,
  params: IdParamsSchema,
  body: z
    .object({
      bv_specification: DatasetInputSchema,
      version: z.number('version is required').pipe(PositiveInt4Schema),
    })
    .strict(),
  responses: {
    200: z.object({ dataset: DatasetSchema }),
    ...writeErrors,
    ...errorsFor(404, 409),
  },
});

export const deleteDataset = defineRoute({
  method: 'DELETE',
  path: '/api/bv_specifications/:id',
  summary: 'Delete a dataset. `version` is the one the person saw; 409 with `current` when it changed since',
  tags: ['datasets'],
  access: STAFF,
  params: IdParamsSchema,
  query: z.object({ version: z.coerce.number('version is required').pipe(PositiveInt4Schema) }).strict(),
  responses: {
    200: z.object({ code: z.literal('success') }),
    ...errorsFor(400, 401, 403, 404, 409),
  },
});
