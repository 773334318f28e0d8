import type { FastifyReply } from 'fastify';

/**
 * Adds a request header's name to the answer's `Vary` instead of replacing it: CORS (which reflects
 * the caller's `Origin`) has already said `Vary: Origin`, and a cache keyed on `Accept-Encoding` alone
 * would hand one origin's answer to another (decision 089, RFC 9110 §12.5.5).
 */
export function varyOn(reply: FastifyReply, field: string): FastifyReply {
  const current = reply.getHeader('Vary');
  if (current === undefined || current === '') return reply.header('Vary', field);
  const text = Array.isArray(current) ? current.join(', ') : String(current);
  const names = text.split(',').map((name) => name.trim().toLowerCase());
  if (names.includes('*') || names.includes(field.toLowerCase())) return reply;
  return reply.header('Vary', `${text}, ${field}`);
}
