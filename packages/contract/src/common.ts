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

/** The version a person saw, on a delete: optional; when given, a changed row answers 409. */
export const OptionalVersionQuerySchema = z.object({ version: IdSchema.optional() }).strict();

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
