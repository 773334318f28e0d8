import type { z } from 'zod';

/** The roles of a user (decision 008): `admin` manages users, `curator` curates, `assessor` appraises. */
export const ROLES = ['admin', 'curator', 'assessor'] as const;
export type Role = (typeof ROLES)[number];

/**
 * Who may call a route: `public`, or the roles it admits. The server enforces it (401 without a
 * session, 403 for another role); the web only reflects it.
 */
export type Access = 'public' | readonly Role[];

/** Administrators and curators: what the spec gives a signed-in user (entering and managing data). */
export const STAFF = ['admin', 'curator'] as const satisfies readonly Role[];
/** Administrators only: users and the agreement figures. */
export const ADMINS = ['admin'] as const satisfies readonly Role[];
/** Any signed-in user, assessors included (sign-out, own password, own appraisals). */
export const ANY_ROLE = ROLES;

/** Whether a user of this role may call a route of this access. */
export function admits(access: Access, role: string | null | undefined): boolean {
  if (access === 'public') return true;
  return role != null && (access as readonly string[]).includes(role);
}

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
