import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { useTestApp } from '../../test/test-app.js';

// The rate limit of a default deployment (not the test default, which is raised): the pass below
// is what a bulk consumer does, and it must get through from one address.
const defaultLimit = loadConfig({
  NODE_ENV: 'test',
  LOG_LEVEL: 'silent',
  DATA_DIR: 'memory://',
  WEB_DIST: '/nonexistent',
}).RATE_LIMIT_PER_MINUTE;
const ctx = useTestApp({ env: { RATE_LIMIT_PER_MINUTE: String(defaultLimit) } });

describe('a bulk consumer, as a script would run it, from one address', () => {
  it('pages /api/bv_specifications?limit=20 to the end, then reads every dataset by id: no 429, nothing missed', async () => {
    const remoteAddress = '203.0.113.7';
    const statuses = new Map<number, number>();
    const call = async (url: string) => {
      const res = await ctx.app.inject({ url, remoteAddress });
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
      return res;
    };

    const ids: number[] = [];
    let total = -1;
    let requests = 0;
    for (let offset = 0; ; offset += 20) {
      const res = await call(`/api/bv_specifications?limit=20&offset=${offset}`);
      expect(res.statusCode).toBe(200);
      const page = res.json<{ meta: { total: number }; data: { id: number; measurand: string }[] }>();
      total = page.meta.total;
      ids.push(...page.data.map((d) => d.id));
      requests++;
      // The loop a script writes: stop on an empty page. Bounded, so a paging bug fails, not hangs.
      if (page.data.length === 0) break;
      expect(requests).toBeLessThan(total / 20 + 3);
    }
    expect(ids).toHaveLength(total);
    expect(new Set(ids).size).toBe(total);

    for (const id of ids) {
      const res = await call(`/api/bv_specifications/${id}`);
      expect(res.statusCode).toBe(200);
      expect(res.json<{ dataset: { id: number } }>().dataset.id).toBe(id);
    }
    expect([...statuses.keys()]).toEqual([200]);
    // The whole pass fits in one minute's allowance of a default deployment.
    expect(requests + ids.length).toBeLessThanOrEqual(defaultLimit);

    // And the whole catalogue in one call holds the same ids.
    const bulk = (await call('/api/v1/bulk/datasets')).json<{ data: { id: number }[]; total: number }>();
    expect(bulk.data.map((d) => d.id)).toEqual(ids);
    expect(bulk.total).toBe(total);
  });
});
