import { z } from 'zod';

/** The one error shape every 4xx/5xx answer carries. */
export const ErrorSchema = z.object({
  error: z.string().describe('Short error name, e.g. Not Found'),
  message: z.string().describe('Human-readable message'),
  statusCode: z.number().int(),
  fields: z
    .array(z.object({ path: z.string(), message: z.string() }))
    .optional()
    .describe('Field-level messages for validation failures'),
  current: z.unknown().optional().describe('On 409 conflicts: the record as it is now'),
});
export type ApiError = z.infer<typeof ErrorSchema>;

/** PostgreSQL's `integer`: no row has an id or a version beyond it, and no query may be sent one. */
export const INT4_MAX = 2_147_483_647;

/** A row id in a path or query (text coerced to a whole number, 1 to 2^31-1). */
export const IdSchema = z.coerce
  .number('must be a number')
  .int('must be a whole number')
  .positive('must be a positive number')
  .max(INT4_MAX, `must be at most ${INT4_MAX}`);

export const IdParamsSchema = z.object({ id: IdSchema });

/** An id or a version in a JSON body: a whole number from 1 to 2^31-1 (no text coerced). */
export const PositiveInt4Schema = z
  .number()
  .int('must be a whole number')
  .positive('must be a positive number')
  .max(INT4_MAX, `must be at most ${INT4_MAX}`);

/**
 * The version a person saw, on a delete: required, as on an edit (issue 43.6); a changed row answers
 * 409 with the current one, a missing version 400.
 */
export const RequiredVersionQuerySchema = z
  .object({
    version: z.coerce
      .number('version is required: send the version you saw (409 when it changed since)')
      .pipe(PositiveInt4Schema),
  })
  .strict();

/**
 * The smallest probability, and the closest to 1, that any parameter may carry (issue 43.3). The
 * quantile functions are defined strictly inside (0, 1), and a double near 1 has steps of 1.1e-16:
 * `1 − alpha/k` with the estimator's Bonferroni split over up to 10,000 subjects still lies a
 * thousand steps below 1 at alpha = 1e-9, and `(1 + p)/2` of an RCV probability of 1 − 1e-9 is
 * 1 − 5e-10. No laboratory works nearer than one in a billion.
 */
export const PROBABILITY_EPSILON = 1e-9;

/** The UTC year of an ISO date (its start) or timestamp. */
const utcYearOf = (value: string) =>
  new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T12:00:00Z` : value).getUTCFullYear();
/** PostgreSQL has no year 0 and JavaScript writes years past 9999 with a sign: dates stay in 0001–9999. */
const inYearRange = (value: string) => {
  const year = utcYearOf(value);
  return year >= 1 && year <= 9999;
};
export const DATE_RANGE_MESSAGE = 'must lie between 0001-01-01 and 9999-12-31';

/** An ISO 8601 day (YYYY-MM-DD) in the years 0001–9999. */
export const isoDateSchema = (message: string) =>
  z.iso.date(message).refine(inYearRange, `${message}: ${DATE_RANGE_MESSAGE}`);

/** An ISO 8601 timestamp with an offset, whose UTC instant lies in the years 0001–9999. */
export const isoDateTimeSchema = (message?: string) =>
  z.iso
    .datetime({ offset: true, ...(message ? { message } : {}) })
    .refine(inYearRange, `${message ?? 'must be an ISO 8601 timestamp'}: ${DATE_RANGE_MESSAGE}`);

/** 0/1 flags as the live system sends them. */
export const FlagSchema = z.union([z.literal(0), z.literal(1)]);

/** The error answers of a route, e.g. `...errorsFor(400, 401, 404)`: each is an ErrorSchema. */
export function errorsFor<C extends number>(...codes: C[]): Record<C, typeof ErrorSchema> {
  return Object.fromEntries(codes.map((code) => [code, ErrorSchema])) as Record<C, typeof ErrorSchema>;
}

export const errorResponses = {
  400: ErrorSchema,
  404: ErrorSchema,
} as const;

export const OkSchema = z.object({ code: z.literal('success') });
