import type { FastifyInstance } from 'fastify';
import { AppError } from '../lib/app-error.js';

/** Where in a parsed value a NUL character hides, as a path (`body.name`), or null when none does. */
function findNul(value: unknown, path: string, depth = 0): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (depth > 32 || value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return null;
  for (const [key, item] of Object.entries(value)) {
    if (key.includes('\u0000')) return path;
    const found = findNul(item, `${path}.${key}`, depth + 1);
    if (found) return found;
  }
  return null;
}

/**
 * PostgreSQL text cannot hold NUL (U+0000): a value carrying one fails inside the database. One
 * guard for every route, before validation, so a route added later cannot let one through: 400.
 */
export function registerInputGuards(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const where =
      findNul(request.params, 'params') ?? findNul(request.query, 'query') ?? findNul(request.body, 'body');
    if (where) {
      throw new AppError('bad_request', `${where}: must not contain a NUL (\\u0000) character`, {
        fields: [{ path: where, message: 'must not contain a NUL (\\u0000) character' }],
      });
    }
  });
}
