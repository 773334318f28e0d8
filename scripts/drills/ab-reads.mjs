#!/usr/bin/env node
// A/B of cached public reads between two built servers on the same machine, in alternating
// phases (the machine may be shared: only the ratio of neighbouring phases counts).
//   node scripts/drills/ab-reads.mjs --a=/path/to/old/main.js --b=packages/server/dist/main.js [--pairs=4] [--seconds=5]
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';

const arg = (name, fallback) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const pairs = Number(arg('pairs', '4'));
const seconds = Number(arg('seconds', '5'));
const paths = ['/api/meta', '/autocomplete?query=so', '/api/meta_calculations', '/healthz'];

async function start(main, port) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bvdb-ab-'));
  const child = spawn(process.execPath, [main], {
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      WEB_DIST: '/nonexistent',
      RATE_LIMIT_PER_MINUTE: '100000000',
      ADMIN_EMAIL: 'admin@example.org',
      ADMIN_PASSWORD: 'ab-password-1',
    },
    stdio: 'ignore',
  });
  for (let i = 0; i < 200; i++) {
    if (
      await fetch(`http://127.0.0.1:${port}/readyz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    await new Promise((r) => setTimeout(r, 200));
  }
  return { child, dataDir };
}

async function measure(port) {
  const res = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: 20,
    duration: seconds,
    requests: paths.map((p) => ({ method: 'GET', path: p, headers: { 'accept-encoding': 'gzip' } })),
  });
  return res.requests.average;
}

const servers = [await start(arg('a'), 3201), await start(arg('b'), 3202)];
await measure(3201);
await measure(3202); // warm-up
const ratios = [];
for (let i = 0; i < pairs; i++) {
  const a = await measure(3201);
  const b = await measure(3202);
  ratios.push(b / a);
  console.log(`pair ${i + 1}: a ${a.toFixed(0)} req/s, b ${b.toFixed(0)} req/s, b/a ${(b / a).toFixed(3)}`);
}
ratios.sort((x, y) => x - y);
console.log(
  `median b/a ${ratios[Math.floor(ratios.length / 2)].toFixed(3)} (${os.loadavg()[0].toFixed(2)} load)`,
);
for (const s of servers) {
  s.child.kill('SIGTERM');
  fs.rmSync(s.dataDir, { recursive: true, force: true });
}
