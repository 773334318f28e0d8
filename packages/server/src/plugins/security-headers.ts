import type { FastifyInstance } from 'fastify';

const csp = (statsUrl: string | undefined) => [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: https:",
  "font-src 'self' data:",
  // The curators' status card checks an outside statistics service (STATS_URL) from the browser.
  statsUrl ? `connect-src 'self' ${new URL(statsUrl).origin}` : "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "object-src 'none'",
];

/** JSON (and `+json`) bodies: data, never rendered as a document a browser frames or navigates from. */
const isJson = (type: string): boolean => type.startsWith('application/json') || type.includes('+json');

/**
 * Baseline headers; the strict CSP goes on HTML, where scripts could run. `nosniff` on every answer;
 * framing and referrer rules on what a browser renders as a document (decision 089): not on JSON,
 * and not on a 304 without a type (the stored answer keeps its own).
 */
export function registerSecurityHeaders(app: FastifyInstance): void {
  const CSP = csp(app.deps.config.STATS_URL).join('; ');
  app.addHook('onSend', (request, reply, payload, done) => {
    void reply.header('X-Content-Type-Options', 'nosniff');
    const type = String(reply.getHeader('content-type') ?? '');
    if (type !== '' && !isJson(type)) {
      void reply.header('Referrer-Policy', 'strict-origin-when-cross-origin');
      void reply.header('X-Frame-Options', 'DENY');
      if (type.startsWith('text/html') && !request.url.startsWith('/api/docs')) {
        void reply.header('Content-Security-Policy', CSP);
      }
    }
    done(null, payload);
  });
}
