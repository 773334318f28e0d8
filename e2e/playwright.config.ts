import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';

// One fresh embedded database per run: the journeys see exactly the demo data.
const dataDir = process.env.E2E_DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'bvdb-e2e-'));
process.env.E2E_DATA_DIR = dataDir;
const port = Number(process.env.E2E_PORT ?? 3111);

const E2E_ADMIN = { email: 'admin@example.org', password: 'e2e-password-123' };

export default defineConfig({
  testDir: './tests',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    // Bootstrap's fades are off under reduced motion: axe then never reads a dialog half faded in
    // (a colour-contrast failure of a loaded machine, not of the page).
    reducedMotion: 'reduce',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: {
    command: 'node ../packages/server/dist/bundle/main.js',
    url: `http://127.0.0.1:${port}/readyz`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      ADMIN_EMAIL: E2E_ADMIN.email,
      ADMIN_PASSWORD: E2E_ADMIN.password,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '100000',
      RATE_LIMIT_HEAVY_PER_MINUTE: '100000',
      RATE_LIMIT_WRITE_PER_MINUTE: '100000',
      RATE_LIMIT_SIGN_IN_PER_MINUTE: '100000',
    },
  },
});
