import type { FastifyInstance } from 'fastify';
import { ResponseCache } from '../lib/response-cache.js';
import type { TestContext } from './test-app.js';

/** The services' deps for a test database (an import with recompute drains the outbox itself). */
export const depsOf = (ctx: TestContext) => ({ db: ctx.database.db, cache: new ResponseCache() });

/** The public read API's answers that a round-trip must keep, keyed by URL. */
export async function publicAnswers(
  app: FastifyInstance,
  headers: Record<string, string> = {},
): Promise<Record<string, unknown>> {
  const get = async (url: string) => {
    const res = await app.inject({ url, headers });
    return res.statusCode === 200 ? res.json<unknown>() : { status: res.statusCode };
  };
  const list = <T>(v: unknown, key: string): T[] => {
    const o = v as Record<string, unknown>;
    return (Array.isArray(v) ? v : Array.isArray(o[key]) ? o[key] : []) as T[];
  };
  const analytes = list<{ id: number }>(await get('/api/analytes_with_bv_specifications'), 'analytes');
  const references = list<{ id: number }>(await get('/api/references'), 'references');
  const specs = list<{ id: number }>(await get('/api/bv_specifications'), 'data');
  const urls = [
    '/api/analytes_with_bv_specifications',
    '/api/references',
    '/api/bv_specifications',
    '/api/matrices',
    '/api/units',
    '/api/lookups',
    '/api/meta',
    '/api/meta_calculations',
    '/autocomplete?query=cre',
    ...analytes
      .slice(0, 12)
      .flatMap((a) => [
        `/api/analytes/${a.id}`,
        `/api/analyte_specifications/${a.id}`,
        `/api/meta_calculations/meta_by_analyte/${a.id}`,
      ]),
    ...references.slice(0, 12).map((r) => `/api/references/${r.id}/bv_specifications`),
    ...specs.slice(0, 20).map((s) => `/api/bv_specifications/${s.id}`),
  ];
  const out: Record<string, unknown> = {};
  for (const url of urls) out[url] = await get(url);
  return out;
}
