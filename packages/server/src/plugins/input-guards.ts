import type { FastifyInstance } from 'fastify';
import { AppError } from '../lib/app-error.js';
import { jsonDepthExceeds, MAX_JSON_DEPTH } from '../lib/json-depth.js';

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
  registerDepthCappedJsonParser(app);
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

/**
 * Fastify's own JSON parser (prototype-poisoning checks and its messages kept), behind a depth cap
 * for every route: 10,000 levels of `[` parse fine but blow the stack of whatever walks the value
 * next (a worker's structured clone, validation, logging), so they are refused here with a 400.
 */
function registerDepthCappedJsonParser(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  addDepthCappedJsonParser(app, 'application/json');
}

/** The same parser for another JSON media type (`application/fhir+json` on the FHIR routes). */
export function addDepthCappedJsonParser(app: FastifyInstance, contentType: string): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser(contentType, { parseAs: 'string' }, (request, text, done) => {
    const body = text as string;
    if (jsonDepthExceeds(body)) {
      done(
        new AppError('bad_request', `The JSON body nests deeper than ${MAX_JSON_DEPTH} levels`),
        undefined,
      );
      return;
    }
    void parseJson(request, body, done);
  });
}
