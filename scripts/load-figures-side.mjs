#!/usr/bin/env node
// One side load of scripts/load-figures.mjs, run in its own process (forked with an IPC channel):
// a login flood, a subscribe stream, a heavy stream, or the static-file probe. Each runs apart from
// the reads' client (autocannon) so that a client busy reading 19 MB bodies or keeping fetch's books
// is not counted as the server being slow, and so the probe's timings are not its neighbours'.
//
// Protocol: the parent forks this file with LOAD_SIDE = JSON { kind, base, ... } in the
// environment; this process sends { started: true } once its lanes run, and on the message 'stop'
// answers { result } and exits.
import http from 'node:http';
import { performance } from 'node:perf_hooks';

const job = JSON.parse(process.env.LOAD_SIDE ?? '{}');
const BASE = job.base;

const cookieOf = (res, name) =>
  res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .find((c) => c.startsWith(`${name}=`));

const keepAlive = new http.Agent({ keepAlive: true });

/**
 * GETs `url` and throws the body away as it comes, without fetch's web streams: on a machine of two
 * cores the clients share one, and a client spending it on 19 MB bodies would slow the reads' client
 * (autocannon) and be counted as the server being slow.
 */
function download(url) {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: keepAlive }, (res) => {
        res.on('end', () => resolve(res.statusCode));
        res.on('error', reject);
        res.resume();
      })
      .on('error', reject);
  });
}

/** Loops `worker` on `concurrency` lanes until `stop()`; counts answers by status. */
function stream(concurrency, worker, pauseMs = 0) {
  let running = true;
  const statuses = {};
  const lanes = Array.from({ length: concurrency }, async (_, lane) => {
    for (let i = 0; running; i++) {
      try {
        const status = await worker(lane, i);
        statuses[status] = (statuses[status] ?? 0) + 1;
      } catch (err) {
        statuses[err.name ?? 'error'] = (statuses[err.name ?? 'error'] ?? 0) + 1;
      }
      if (pauseMs) await new Promise((r) => setTimeout(r, pauseMs));
    }
  });
  return {
    async stop() {
      running = false;
      await Promise.all(lanes);
      return statuses;
    },
  };
}

/** Fetches one static asset every 100 ms; returns the latencies. */
function probeStatic(assetPath) {
  const times = [];
  let running = true;
  const done = (async () => {
    // One untimed request first: a client's first fetch loads undici and opens the connection, which
    // is this process's start-up, not the server's answer.
    await fetch(BASE + assetPath).then(
      (res) => res.arrayBuffer(),
      () => undefined,
    );
    while (running) {
      const t = performance.now();
      try {
        const res = await fetch(BASE + assetPath, { headers: { 'accept-encoding': 'br, gzip' } });
        await res.arrayBuffer();
        times.push(performance.now() - t);
      } catch {
        times.push(Infinity);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  return {
    async stop() {
      running = false;
      await done;
      times.sort((a, b) => a - b);
      return {
        max: times.at(-1) ?? NaN,
        p99: times[Math.floor(times.length * 0.99)] ?? NaN,
        count: times.length,
      };
    },
  };
}

const kinds = {
  probe: () => probeStatic(job.asset),
  login: () =>
    stream(8, async (lane, i) => {
      const res = await fetch(`${BASE}/users/sign_in`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: `flood${lane}-${i}@example.org`, password: 'wrong-password-1' }),
      });
      await res.arrayBuffer();
      return res.status;
    }),
  subscribe: () =>
    stream(
      1,
      async (_lane, i) => {
        const session = await fetch(`${BASE}/api/session`);
        const { csrf_token } = await session.json();
        const res = await fetch(`${BASE}/api/mailing_list/subscribe`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            cookie: cookieOf(session, 'bvdb_csrf') ?? '',
            'x-csrf-token': csrf_token,
          },
          body: JSON.stringify({ email: `reader${i}-${Date.now()}@example.org` }),
        });
        await res.arrayBuffer();
        return res.status;
      },
      250,
    ),
  heavy: () =>
    stream(4, async (lane, i) => {
      const url =
        lane === 0
          ? `/export/bv_database.xlsx?cb=${i}-${Math.random()}`
          : lane === 1
            ? `/export_by_analyte/${job.analyteId}.xlsx?utm_source=${i}`
            : `/api/references/${job.pdfReference}/file`;
      return download(BASE + url);
    }),
};

const start = kinds[job.kind];
if (!start || !process.send) {
  console.error(`load-figures-side: unknown kind ${job.kind} or not forked with IPC`);
  process.exit(2);
}
const running = start();
process.send({ started: true });
process.on('message', (message) => {
  if (message !== 'stop') return;
  void running.stop().then((result) => {
    process.send({ result }, () => process.exit(0));
  });
});
