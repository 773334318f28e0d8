import { buildPath, type RouteDef } from '@bvdb/contract';
import type { z } from 'zod';
import { withSchemas } from './route-ref';

/** A non-2xx answer: the status, and the server's own message when it sent one. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly statusText: string,
    message: string,
    readonly body: unknown = undefined,
  ) {
    super(message);
  }
}

/** The parsed answer of a route's success status (200, 201 or 202). */
export type Success<D extends RouteDef> =
  D['responses'] extends Record<number, z.ZodType>
    ? 200 extends keyof D['responses']
      ? z.output<D['responses'][200]>
      : 201 extends keyof D['responses']
        ? z.output<D['responses'][201]>
        : 202 extends keyof D['responses']
          ? z.output<D['responses'][202]>
          : unknown
    : unknown;

export interface CallOptions {
  params?: Record<string, string | number>;
  query?: Record<string, string | number | undefined | null>;
  body?: unknown;
  signal?: AbortSignal;
  csrfToken?: string | null;
}

export function urlFor(def: RouteDef, opts: Pick<CallOptions, 'params' | 'query'> = {}): string {
  const path = buildPath(def.path, opts.params);
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(opts.query ?? {}))
    if (v !== undefined && v !== null && v !== '') qs.set(k, String(v));
  const q = qs.toString();
  return q ? `${path}?${q}` : path;
}

type FetchLike = (url: string, init: RequestInit) => Promise<Response>;
let fetchImpl: FetchLike = (url, init) => fetch(url, init);

/** The server-side renderer answers the app's reads in-process (entry-server.tsx). */
export function setApiFetch(impl: FetchLike): void {
  fetchImpl = impl;
}

/** One typed call: the URL from the contract, the answer parsed with the contract's schema. */
export async function apiCall<D extends RouteDef>(def: D, opts: CallOptions = {}): Promise<Success<D>> {
  // No custom header on plain reads: the browser only hands a `<link rel="preload" as="fetch">`
  // answer (server/plugins/page-preloads.ts) to a fetch without one.
  const headers: Record<string, string> = {};
  if (opts.body !== undefined) headers['Content-Type'] = 'application/json';
  if (opts.csrfToken) headers['X-CSRF-Token'] = opts.csrfToken;
  // In the browser the route may be a reference whose schemas load with the first call (decision
  // 075): fetched alongside the request, not after it.
  const schemas = withSchemas(def);
  void schemas.catch(() => undefined);
  const res = await fetchImpl(urlFor(def, opts), {
    method: def.method,
    headers,
    credentials: 'same-origin',
    ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}),
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
  const text = await res.text();
  let json: unknown = undefined;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  if (!res.ok) {
    const message =
      json && typeof json === 'object' && 'message' in json && typeof json.message === 'string'
        ? json.message
        : `Error: ${res.status} ${res.statusText}`;
    throw new ApiError(res.status, res.statusText, message, json);
  }
  const schema = (await schemas).responses[res.status];
  return (schema ? schema.parse(json) : json) as Success<D>;
}

/** Whether the API said the record is not there (404): its page is the app's "Page not found". */
export const isNotFound = (err: unknown): boolean => err instanceof ApiError && err.status === 404;

/** "Error: {status} {statusText}" for a non-OK answer, the message otherwise (spec section 8). */
export function errorText(err: unknown): string {
  if (err instanceof ApiError) return `Error: ${err.status} ${err.statusText}`.trim();
  if (err instanceof Error) return err.message;
  return 'An unknown error occurred';
}
