import { z } from 'zod';
import { defineRoute } from './route.js';

export const healthz = defineRoute({
  method: 'GET',
  path: '/healthz',
  summary: 'The process is up',
  tags: ['operations'],
  access: 'public',
  responses: {
    200: z.object({
      status: z.literal('ok'),
      /** The release (semantic version, CHANGELOG.md). */
      version: z.string(),
    }),
  },
});

export const readyz = defineRoute({
  method: 'GET',
  path: '/readyz',
  summary: 'The database answers and the published datasets are kept (warm-up over)',
  tags: ['operations'],
  access: 'public',
  responses: {
    200: z.object({ status: z.literal('ready') }),
    503: z.object({ status: z.literal('unavailable'), message: z.string() }),
  },
});
