import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../lib/app-error.js';

const CSRF_HEADER = 'x-csrf-token';
/** A visitor's CSRF token (no session): HttpOnly and SameSite=Strict, echoed in the header by the page. */
export const ANON_CSRF_COOKIE = 'bvdb_csrf';

function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * State-changing requests must echo the session's (or the visitor's) CSRF token in a header a
 * foreign site cannot set. A request guard shared by every module that accepts writes.
 */
export function assertCsrf(request: FastifyRequest): void {
  const sent = request.headers[CSRF_HEADER];
  const expected = request.session?.csrfToken ?? request.cookies[ANON_CSRF_COOKIE];
  if (typeof sent !== 'string' || !expected || !sameToken(sent, expected)) {
    throw new AppError('forbidden', 'Missing or invalid CSRF token; reload the page and try again');
  }
}
