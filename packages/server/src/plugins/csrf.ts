import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../lib/app-error.js';

const CSRF_HEADER = 'x-csrf-token';
/** A visitor's CSRF token (no session): HttpOnly and SameSite=Strict, echoed in the header by the page. */
export const ANON_CSRF_COOKIE = 'bvdb_csrf';

function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
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
 * Whether a browser says this request comes from another site: `Sec-Fetch-Site: cross-site` (or
 * `same-site`, a sibling host), or an Origin (else a Referer) naming a host other than the request's
 * own. The request's own host is what Fastify reads, `X-Forwarded-Host` included when TRUST_PROXY
 * trusts the proxy; PUBLIC_URL's host is this site too. Clients that send none of these headers are
 * not browsers and carry no victim's cookies.
 */
function fromAnotherSite(request: FastifyRequest): boolean {
  const fetchSite = request.headers['sec-fetch-site'];
  if (fetchSite === 'cross-site' || fetchSite === 'same-site') return true;
  const origin = request.headers.origin;
  const referer = request.headers.referer;
  const named = typeof origin === 'string' ? origin : typeof referer === 'string' ? referer : undefined;
  if (named === undefined) return false;
  const host = hostOf(named);
  if (host === null) return true;
  if (host === request.host) return false;
  const publicUrl = (request.server as { deps?: { config?: { PUBLIC_URL?: string } } }).deps?.config
    ?.PUBLIC_URL;
  return !(publicUrl !== undefined && hostOf(publicUrl) === host);
}

/**
 * State-changing requests must echo the session's (or the visitor's) CSRF token in a header a
 * foreign site cannot set, and must not come from another site whatever token they carry (defence
 * in depth, issue 43.6: a token that leaked is no pass for a page elsewhere). A request guard shared
 * by every module that accepts writes.
 */
const crossSiteRefused = () =>
  new AppError('forbidden', 'Cross-site request refused; make the change from this site’s own page');

export function assertCsrf(request: FastifyRequest): void {
  if (fromAnotherSite(request)) throw crossSiteRefused();
  const sent = request.headers[CSRF_HEADER];
  const expected = request.session?.csrfToken ?? request.cookies[ANON_CSRF_COOKIE];
  if (typeof sent !== 'string' || !expected || !sameToken(sent, expected)) {
    throw new AppError('forbidden', 'Missing or invalid CSRF token; reload the page and try again');
  }
}

/**
 * For the writes that come before any token exists (sign-in): a browser posting from another site
 * names that site in Origin (or Referer) and says `Sec-Fetch-Site: cross-site`; refuse it, so no
 * page elsewhere can sign a visitor in to an account of its choosing (login CSRF).
 */
export function assertSameOrigin(request: FastifyRequest): void {
  if (fromAnotherSite(request)) {
    throw new AppError('forbidden', 'Cross-site sign-in refused; sign in from this site’s own page');
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Routes with a cross-site guard of their own, and its own message. */
const OWN_GUARD = new Set(['/users/sign_in']);

/**
 * Every request of a method that changes state (POST, PUT, PATCH, DELETE) that a browser says comes
 * from another site is refused before its body is read, whichever route it names, public ones too:
 * CORS admits only GET and HEAD from elsewhere, so no page of another site has a use for them, and a
 * form posted from one would spend a visitor's session or the server's work (issue 43.6).
 */
export function registerCrossSiteGuard(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    if (SAFE_METHODS.has(request.method) || OWN_GUARD.has(request.routeOptions.url ?? '')) return;
    if (fromAnotherSite(request)) throw crossSiteRefused();
  });
}
