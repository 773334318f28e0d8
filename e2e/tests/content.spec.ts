import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from './helpers';

const main = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../packages/server/dist/bundle/main.js',
);
const HOSTILE =
  '<p>Hi</p><script>window.__pwned = 1</script><img src="x" onerror="window.__pwned = 2">' +
  '<a id="bad" href="javascript:window.__pwned = 3">click</a><iframe src="https://evil.example/"></iframe>' +
  '<a id="out" href="https://eflm.eu/">EFLM</a>';

let wp: http.Server;
let server: ChildProcess;
const wpPort = 3121;
const appPort = 3122;

test.beforeAll(async () => {
  // A stand-in WordPress: the real REST shape, with hostile HTML in one page.
  wp = http.createServer((req, res) => {
    const m = /\/wp-json\/wp\/v2\/pages\/(\d+)$/.exec(req.url ?? '');
    if (!m) return void res.writeHead(404).end();
    const id = Number(m[1]);
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        id,
        title: { rendered: `WP page ${id}` },
        content: { rendered: id === 25 ? HOSTILE : `<p>Page ${id}</p>` },
      }),
    );
  });
  await new Promise<void>((r) => wp.listen(wpPort, '127.0.0.1', r));
  server = spawn(process.execPath, [main], {
    env: {
      ...process.env,
      DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'bvdb-e2e-content-')),
      PORT: String(appPort),
      CONTENT_URL: `http://127.0.0.1:${wpPort}`,
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
    },
    stdio: 'ignore',
  });
  for (let i = 0; i < 120; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${appPort}/readyz`)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('content server did not start');
});

test.afterAll(async () => {
  server.kill('SIGTERM');
  await new Promise<void>((r) => wp.close(() => r()));
});

test('pages from a WordPress service arrive sanitised: nothing executable reaches the browser', async ({
  page,
}) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`http://127.0.0.1:${appPort}/disclaimer`);
  await expect(page.getByRole('heading', { name: 'WP page 25' })).toBeVisible();
  await expect(page.locator('article').getByText('Hi')).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  await expect(page.locator('article script, article iframe, article [onerror]')).toHaveCount(0);
  expect(await page.locator('article a', { hasText: 'click' }).getAttribute('href')).toBeNull();
  await expect(page.locator('article a', { hasText: 'EFLM' })).toHaveAttribute('target', '_blank');
  await expect(page.locator('article a', { hasText: 'EFLM' })).toHaveAttribute('rel', 'noopener noreferrer');
  await page.locator('article a', { hasText: 'click' }).click();
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  expect(errors).toEqual([]);
  await page.goto(`http://127.0.0.1:${appPort}/about`);
  await expect(page.locator('article p')).toHaveText('Page 10');
});
