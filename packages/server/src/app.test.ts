import { BVDB_VERSION } from '@bvdb/contract';
import { describe, expect, it } from 'vitest';
import { loadConfig, ConfigError } from './config.js';
import { useTestApp } from './test/test-app.js';

const ctx = useTestApp();

describe('the server', () => {
  it('answers /healthz and /readyz', async () => {
    expect((await ctx.app.inject({ url: '/healthz' })).json()).toEqual({
      status: 'ok',
      version: BVDB_VERSION,
    });
    expect((await ctx.app.inject({ url: '/readyz' })).json()).toEqual({ status: 'ready' });
  });

  it('answers 404 JSON for an unknown /api path', async () => {
    const res = await ctx.app.inject({ url: '/api/no-such-thing' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ statusCode: 404, error: 'Not Found' });
  });

  it('answers 400 with a message for malformed JSON', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/stats/metacalculation',
      headers: { 'content-type': 'application/json' },
      payload: '{"rows": [',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toBeTruthy();
  });

  it('answers 400 for a content type it does not take', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/stats/metacalculation',
      headers: { 'content-type': 'application/x-unknown' },
      payload: 'x',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toMatch(/content type/i);
  });

  it('GET /api/meta: the three counters', async () => {
    const res = await ctx.app.inject({ url: '/api/meta' });
    const { meta_data } = res.json<{ meta_data: Record<string, number> }>();
    expect(meta_data.total_bv_specifications).toBe(202);
    expect(meta_data.total_references).toBeGreaterThanOrEqual(112);
    expect(meta_data.total_metas).toBeGreaterThan(0);
  });

  it('publishes an OpenAPI description and a reference page', async () => {
    const spec = (await ctx.app.inject({ url: '/api/openapi.json' })).json<{
      openapi: string;
      paths: Record<string, unknown>;
    }>();
    expect(spec.openapi).toBe('3.1.0');
    expect(Object.keys(spec.paths)).toContain('/api/meta');
    const docs = await ctx.app.inject({ url: '/api/docs/' });
    expect(docs.statusCode).toBe(200);
  });

  it('opens GET requests to other origins (CORS)', async () => {
    const res = await ctx.app.inject({ url: '/api/meta', headers: { origin: 'https://lab.example' } });
    expect(res.headers['access-control-allow-origin']).toBe('https://lab.example');
  });
});

describe('configuration', () => {
  it('names the variable that is wrong', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ ADMIN_PASSWORD: 'short' })).toThrow(/ADMIN_PASSWORD/);
  });

  it('defaults to port 3000 and ./data', () => {
    const c = loadConfig({});
    expect(c.PORT).toBe(3000);
    expect(c.dataDir.endsWith('/data')).toBe(true);
  });
});
