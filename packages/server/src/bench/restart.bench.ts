// `npm run bench`: a restart after `kill -9` on the embedded database at 1× the demo (issue 44.5,
// decision 103). A data folder is made once by a first start (the demo seeded), then, each round,
// the running server is killed with SIGKILL and `node packages/server/dist/bundle/main.js` (what
// `npm start` runs, decision 105; BENCH_RESTART_UNBUNDLED=1: dist/main.js) started again on
// the same folder: the time from the spawn to the first 200 of /readyz. Fails when the median is
// above BENCH_RESTART_CEILING_MS (3000). BENCH_RESTART_ROUNDS (5), BENCH_RESTART_PORT (4171).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const ceiling = Number(process.env.BENCH_RESTART_CEILING_MS ?? 3000);
const rounds = Number(process.env.BENCH_RESTART_ROUNDS ?? 5);
const port = Number(process.env.BENCH_RESTART_PORT ?? 4171);
const mainJs = fileURLToPath(
  new URL(process.env.BENCH_RESTART_UNBUNDLED === '1' ? '../main.js' : '../bundle/main.js', import.meta.url),
);
if (!fs.existsSync(mainJs))
  throw new Error(`${mainJs} is missing: run \`npm run build\` (it bundles the server, decision 105)`);
const webDist = fileURLToPath(new URL('../../../web/dist', import.meta.url));

function startServer(folder: string): { child: ChildProcess; ready: Promise<number> } {
  const begun = performance.now();
  const child = spawn(process.execPath, [mainJs], {
    env: {
      ...process.env,
      DATA_DIR: folder,
      DATABASE_URL: '',
      PORT: String(port),
      HOST: '127.0.0.1',
      ADMIN_EMAIL: 'admin@example.org',
      ADMIN_PASSWORD: 'e2e-password-123',
      WEB_DIST: webDist,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const ready = (async () => {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}: ${err}`);
      try {
        const res = await fetch(`http://127.0.0.1:${port}/readyz`);
        if (res.status === 200) return performance.now() - begun;
      } catch {
        // Not listening yet.
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  return { child, ready };
}

async function kill9(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');

const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'bvdb-restart-bench-'));
const times: number[] = [];
let server: ReturnType<typeof startServer> | undefined;
try {
  server = startServer(folder);
  const firstMs = await server.ready;
  console.log(`first start on an empty folder (the demo seeded): ${Math.round(firstMs)} ms`);
  console.log('');
  console.log('| restart after kill -9 | ms to the first 200 of /readyz | load average (1, 5, 15 min) |');
  console.log('|---|---|---|');
  for (let round = 1; round <= rounds; round++) {
    // A running server, as an operator's would be, then killed without a chance to close.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await kill9(server.child);
    server = startServer(folder);
    const ms = await server.ready;
    times.push(ms);
    console.log(`| ${round} | ${Math.round(ms)} | ${loadAverage()} |`);
  }
} finally {
  if (server) await kill9(server.child);
  fs.rmSync(folder, { recursive: true, force: true });
}
const sorted = [...times].sort((a, b) => a - b);
const median = sorted[Math.floor(sorted.length / 2)]!;
console.log('');
console.log(
  `median ${Math.round(median)} ms (ceiling ${ceiling} ms, BENCH_RESTART_CEILING_MS), fastest ${Math.round(sorted[0]!)} ms, ` +
    `${os.cpus().length} CPUs`,
);
if (median > ceiling) {
  console.log(`FAIL: the median restart after kill -9 is above ${ceiling} ms (BENCH_RESTART_CEILING_MS)`);
  process.exit(1);
}
