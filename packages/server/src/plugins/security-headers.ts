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

/** Baseline headers on every answer; the strict CSP goes on HTML, where scripts could run. */
export function registerSecurityHeaders(app: FastifyInstance): void {
  const CSP = csp(app.deps.config.STATS_URL).join('; ');
  app.addHook('onSend', async (request, reply, payload) => {
    void reply.header('X-Content-Type-Options', 'nosniff');
    void reply.header('Referrer-Policy', 'strict-origin-when-cross-origin');
    void reply.header('X-Frame-Options', 'DENY');
    const type = String(reply.getHeader('content-type') ?? '');
    if (type.startsWith('text/html') && !request.url.startsWith('/api/docs')) {
      void reply.header('Content-Security-Policy', CSP);
    }
    return payload;
  });
}
