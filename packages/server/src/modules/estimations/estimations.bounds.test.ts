import { ESTIMATION_MAX_BOOTSTRAP_WORK } from '@bvdb/domain';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/test-app.js';

// One client cannot keep the estimator busy (issue 43.4, decision 086): the work of one request is
// bounded (results × bootstrap resamples), and one client address runs one computation at a time.
// Over real HTTP, clients told apart by X-Forwarded-For behind one trusted proxy.
const ctx = useTestApp({ demo: false, env: { TRUST_PROXY: '1' } });
let base = '';
beforeAll(async () => {
  base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
});

/** `results` rows of 20 subjects × 10 samples × replicates, positive and varied. */
function rows(results: number) {
  return Array.from({ length: results }, (_, i) => ({
    subject: `S${i % 20}`,
    sample: String(Math.floor(i / 20) % 10),
    replicate: Math.floor(i / 200) + 1,
    value: 100 + (i % 20) * 3 + ((i * 7919) % 13) / 4,
  }));
}

const estimate = (client: string, body: object) =>
  fetch(`${base}/api/v1/estimations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': client },
    body: JSON.stringify(body),
  });

describe('the work of one estimation is bounded', () => {
  it('10,000 results × 10,000 resamples answers 422 at once, naming the bound and what fits', async () => {
    const res = await estimate('203.0.113.1', {
      rows: rows(10_000),
      options: { bootstrap: { replicates: 10_000, seed: 1 } },
    });
    expect(res.status).toBe(422);
    const { message } = (await res.json()) as { message: string };
    expect(message).toBe(
      'A bootstrap of 10,000 resamples over 10,000 results resamples 100,000,000 results: at most 10,000,000 per estimation. Ask for at most 1,000 resamples, or send fewer results.',
    );
  });

  it('the same results with the resamples the message names are estimated', async () => {
    const res = await estimate('203.0.113.2', {
      rows: rows(2_000),
      options: { bootstrap: { replicates: ESTIMATION_MAX_BOOTSTRAP_WORK / 2_000, seed: 1 } },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const body = (await res.json()) as { estimates: { classic: { bootstrap?: { replicates: number } } } };
    expect(body.estimates.classic.bootstrap?.replicates).toBe(5_000);
  });
});

describe('one computation at a time per client', () => {
  it('a second estimation from the same client while one runs: 429 with Retry-After; another client is served', async () => {
    expect(ctx.app.computationsRunning()).toBe(0);
    const slow = estimate('198.51.100.7', {
      rows: rows(10_000),
      options: { bootstrap: { replicates: 1_000, seed: 7 } },
    });
    // The first one holds its slot from its arrival.
    for (let i = 0; i < 200 && ctx.app.computationsRunning() === 0; i++) {
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(ctx.app.computationsRunning()).toBe(1);

    const again = await estimate('198.51.100.7', { rows: rows(400) });
    expect(again.status).toBe(429);
    expect(again.headers.get('retry-after')).toBe('5');
    expect(((await again.json()) as { message: string }).message).toBe(
      'Your address already has an estimation running: at most 1 at a time. Try again when it has answered.',
    );
    // A test menu from that client is served meanwhile (its page posts it again at each choice).
    const menu = await fetch(`${base}/api/v1/menu`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.7' },
      body: JSON.stringify({ tests: [{ name: 'Glucose' }] }),
    });
    expect(menu.status).toBe(200);

    const other = await estimate('198.51.100.8', { rows: rows(400) });
    expect(other.status).toBe(200);

    const first = await slow;
    expect(first.status).toBe(200);
    expect(ctx.app.computationsRunning()).toBe(0);
    // Its slot is free again once it has answered.
    expect((await estimate('198.51.100.7', { rows: rows(400) })).status).toBe(200);
  }, 120_000);

  it('a request that ends before its work (refused body, bad shape) frees its slot', async () => {
    const client = '192.0.2.44';
    const bad = await estimate(client, { rows: 'none' });
    expect(bad.status).toBe(400);
    const huge = await fetch(`${base}/api/v1/estimations`, {
      method: 'POST',
      headers: { 'content-type': 'text/csv', 'x-forwarded-for': client },
      body: 'subject,sample,replicate,value\n' + 'A,1,1,1\n'.repeat(200_000),
    });
    expect(huge.status).toBe(413);
    expect(ctx.app.computationsRunning()).toBe(0);
    expect((await estimate(client, { rows: rows(400) })).status).toBe(200);
  });
});
