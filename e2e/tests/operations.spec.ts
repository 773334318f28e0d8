import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from './helpers';

const main = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../packages/server/dist/bundle/main.js',
);

test('a second server on the same data folder is refused with a clear message and exit code 75', async () => {
  const child = spawn(process.execPath, [main], {
    env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR!, PORT: '3199', LOG_LEVEL: 'warn' },
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  expect(code).toBe(75);
  expect(stderr).toMatch(/is in use by another bvdb process/);
});

test('a bad setting stops the server with a message naming it', async () => {
  const child = spawn(process.execPath, [main], { env: { ...process.env, PORT: 'eighty' } });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  expect(code).toBe(78);
  expect(stderr).toMatch(/PORT/);
});

test('the page footer names the release, as /healthz does (server-rendered and in the app)', async ({
  page,
  request,
}) => {
  const { version } = (await (await request.get('/healthz')).json()) as { version: string };
  expect(version).toMatch(/^\d+\.\d+\.\d+/);
  const served = await (await request.get('/')).text();
  expect(served).toContain(`version ${version}`);
  await page.goto('/');
  await expect(page.locator('footer .site-version')).toHaveText(`version ${version}`);
});
