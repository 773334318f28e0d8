import { z } from 'zod';
import { ErrorSchema, IdParamsSchema, errorsFor, PositiveInt4Schema } from './common.js';
import { defineRoute, STAFF } from './route.js';

export const JobSchema = z.object({
  id: z.number().int(),
  jid: z.string().nullable().describe('The queue (pg-boss) job id'),
  name: z.string(),
  queue: z.string(),
  class_name: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  status: z.enum(['queued', 'working', 'complete', 'failed']),
  progress_stage: z.string().nullable(),
  progress_current: z.number().int(),
  progress_max: z.number().int(),
  error: z.string().nullable(),
  created_at: z.string(),
});
export type Job = z.infer<typeof JobSchema>;

export const getQueueJob = defineRoute({
  method: 'GET',
  path: '/api/queue_jobs/:id',
  summary: 'One background job and its progress',
  tags: ['jobs'],
  access: STAFF,
  params: IdParamsSchema,
  responses: {
    200: z.object({ code: z.literal('success'), data: JobSchema }),
    ...errorsFor(401, 404),
  },
});

export const listQueueJobs = defineRoute({
  method: 'GET',
  path: '/api/queue_jobs',
  summary: 'Recent background jobs, newest first',
  tags: ['jobs'],
  access: STAFF,
  responses: { 200: z.object({ code: z.literal('success'), data: z.array(JobSchema) }), 401: ErrorSchema },
});

export const latestMetaJobs = defineRoute({
  method: 'GET',
  path: '/api/meta_jobs/latest',
  summary: 'The latest "Calculating Meta-Analysis" and "Calculating Consolidated Metas" jobs',
  tags: ['jobs'],
  access: STAFF,
  responses: {
    200: z.object({ meta: JobSchema.nullable(), consolidated: JobSchema.nullable() }),
    401: ErrorSchema,
  },
});

export const startMetaRecompute = defineRoute({
  method: 'POST',
  path: '/api/meta_calculations/recompute',
  summary: 'Queue a recomputation of every meta-analysis (by matrix, then by matrix consolidation)',
  tags: ['jobs'],
  access: STAFF,
  body: z
    .object({ analyte_ids: z.array(PositiveInt4Schema).max(10_000).optional() })
    .strict()
    .default({}),
  responses: {
    202: z.object({ meta: JobSchema, consolidated: JobSchema }),
    ...errorsFor(401, 403, 503),
  },
});
