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

export const IdParamsSchema = z.object({ id: z.coerce.number().int().positive() });

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
