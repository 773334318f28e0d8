import { z } from 'zod';
import { ErrorSchema } from './common.js';
import { defineRoute } from './route.js';

const flexibleBool = z.union([
  z.boolean(),
  z
    .string()
    .trim()
    .transform((s) => s.toUpperCase())
    .pipe(z.enum(['TRUE', 'FALSE', '1', '0', 'T', 'F']))
    .transform((s) => s === 'TRUE' || s === '1' || s === 'T'),
  z
    .number()
    .refine((n) => n === 0 || n === 1, 'must be 0 or 1')
    .transform((n) => n === 1),
]);

const nullableNumber = z.union([
  z.number(),
  z.null(),
  z
    .string()
    .trim()
    .transform((s, ctx) => {
      if (s === '' || s.toUpperCase() === 'NA') return null;
      const n = Number(s);
      if (!Number.isFinite(n)) {
        ctx.addIssue({ code: 'custom', message: `"${s}" is not a number` });
        return z.NEVER;
      }
      return n;
    }),
]);

/** One row of the statistics service's input, as the live R service takes it. */
export const StatsRowSchema = z.object({
  ID: z.union([z.string().min(1), z.number()]).transform(String),
  Include: flexibleBool,
  Score: z
    .string()
    .trim()
    .transform((s) => s.toUpperCase())
    .pipe(z.enum(['A', 'B', 'C', 'D'])),
  CV: nullableNumber,
  CI_lower: nullableNumber,
  CI_upper: nullableNumber,
});
export type StatsRow = z.output<typeof StatsRowSchema>;

export const StatsResultSchema = z.object({
  N: z.number().int(),
  'W.Median': z.number().nullable(),
  Range_lower: z.number().nullable(),
  Range_upper: z.number().nullable(),
  method: z.enum(['none', 'single', 'range', 'bootstrap']),
  seed: z.number().int().nullable(),
  weights: z.array(
    z.object({
      ID: z.string(),
      Score: z.string(),
      CV: z.number(),
      CI_lower: z.number(),
      CI_upper: z.number(),
      weight: z.number(),
      rows: z.number().int(),
    }),
  ),
});
export type StatsResult = z.infer<typeof StatsResultSchema>;

export const metacalculation = defineRoute({
  method: 'POST',
  path: '/api/stats/metacalculation',
  summary:
    "The statistics service: rows of ID, Include, Score, CV, CI_lower, CI_upper (JSON array, `{rows}` or CSV text; at most 10,000 rows and 512 KB, else 422) → N, W.Median, Range_lower, Range_upper, by the R service's rule. 503 with Retry-After when busy",
  tags: ['stats'],
  access: 'public',
  body: z.unknown(),
  query: z.object({ seed: z.coerce.number().int().min(0).max(4294967295).optional() }),
  responses: { 200: StatsResultSchema, 400: ErrorSchema, 422: ErrorSchema, 503: ErrorSchema },
});

export const statsHealth = defineRoute({
  method: 'GET',
  path: '/api/stats/health',
  summary: 'Statistics service health: the body `OK`',
  tags: ['stats'],
  access: 'public',
  produces: 'text/plain',
  responses: { 200: z.string() },
});
