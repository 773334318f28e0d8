import type { z } from 'zod';

/** Who may call a route. Writes default to signed-in; the server enforces it, the web only reflects it. */
export type Access = 'public' | 'signed-in';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteDef<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  R extends Record<number, z.ZodType> = Record<number, z.ZodType>,
> {
  method: HttpMethod;
  /** Fastify-style path, e.g. `/api/analytes/:id`. Public API: keep exactly. */
  path: string;
  summary: string;
  tags: string[];
  access: Access;
  params?: P;
  query?: Q;
  body?: B;
  responses: R;
  /** Responses that are not JSON (spreadsheets, redirects, plain text). */
  produces?: string;
}

/** Identity helper that keeps the literal types of a route definition. */
export function defineRoute<
  P extends z.ZodType,
  Q extends z.ZodType,
  B extends z.ZodType,
  R extends Record<number, z.ZodType>,
>(def: RouteDef<P, Q, B, R>): RouteDef<P, Q, B, R> {
  return def;
}

export type ResponseOf<D> =
  D extends RouteDef<z.ZodType, z.ZodType, z.ZodType, infer R>
    ? 200 extends keyof R
      ? z.infer<R[200]>
      : 201 extends keyof R
        ? z.infer<R[201]>
        : unknown
    : never;

/** Substitutes `:name` segments of a contract path. */
export function buildPath(path: string, params: Record<string, string | number> = {}): string {
  return path.replace(/:([A-Za-z_]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`Missing path parameter ${name} for ${path}`);
    return encodeURIComponent(String(value));
  });
}
