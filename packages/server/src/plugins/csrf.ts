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

/** The host (and port) a browser names in Origin or Referer, or null when the value is no URL. */
function hostOf(value: string): string | null {
  try {
    return new URL(value).host;
  } catch {
    return null;
  }
}

/**
 * For the writes that come before any token exists (sign-in): a browser posting from another site
 * names that site in Origin (or Referer) and says `Sec-Fetch-Site: cross-site`; refuse it, so no
 * page elsewhere can sign a visitor in to an account of its choosing (login CSRF). Clients that
 * send none of these headers are not browsers and carry no victim's cookies.
 */
export function assertSameOrigin(request: FastifyRequest): void {
  const refuse = () => {
    throw new AppError('forbidden', 'Cross-site sign-in refused; sign in from this site’s own page');
  };
  const fetchSite = request.headers['sec-fetch-site'];
  if (fetchSite === 'cross-site' || fetchSite === 'same-site') refuse();
  const origin = request.headers.origin;
  const referer = request.headers.referer;
  const named = typeof origin === 'string' ? origin : typeof referer === 'string' ? referer : undefined;
  if (named === undefined) return;
  if (hostOf(named) !== request.host) refuse();
}
