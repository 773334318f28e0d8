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

const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 256 });

const inFlight = new Set();
let cutting = false;
/**
 * GETs `url` and throws the body away as it comes, without fetch's web streams: on a machine of two
 * cores the clients share one, and a client spending it on 19 MB bodies would slow the reads' client
 * (autocannon) and be counted as the server being slow.
 */
function download(url) {
  return new Promise((resolve, reject) => {
    const req = http
      .get(url, { agent: keepAlive }, (res) => {
        res.on('end', () => resolve(res.statusCode));
        res.on('error', (err) => (cutting ? resolve('cut at stop') : reject(err)));
        res.on('close', () => res.complete || resolve(cutting ? 'cut at stop' : 'incomplete'));
        res.resume();
      })
      .on('error', (err) => (cutting ? resolve('cut at stop') : reject(err)))
      .on('close', () => inFlight.delete(req));
    inFlight.add(req);
  });
}
/** Ends the downloads still running (a paced 19 MB body can take a while), so a phase stops on time. */
function cutDownloads() {
  cutting = true;
  for (const req of inFlight) req.destroy();
}

/** POSTs JSON with node:http (fetch costs this client several times more per request). */
function postJson(url, payload, headers = {}) {
  const body = JSON.stringify(payload);
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        agent: keepAlive,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          ...headers,
        },
      },
      (res) => {
        res.on('end', () => resolve(res.statusCode));
        res.on('error', reject);
        res.resume();
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Offers `perSecond` calls of `worker` a second, whatever the answers' speed (an attack does not
 * wait for the server), in bursts of `burst` at once; counts answers by status. At most `cap` are
 * in flight: beyond that a call is counted as `dropped`, not queued in this client.
 */
function openLoop(perSecond, worker, { burst = 1, cap = 2000 } = {}) {
  const statuses = {};
  const count = (key) => (statuses[key] = (statuses[key] ?? 0) + 1);
  const pending = new Set();
  let i = 0;
  const fire = () => {
    for (let k = 0; k < burst; k++) {
      if (pending.size >= cap) {
        count('dropped');
        continue;
      }
      const call = worker(i++).then(count, (err) => count(err.code ?? err.name ?? 'error'));
      pending.add(call);
      void call.finally(() => pending.delete(call));
    }
  };
  const timer = setInterval(fire, (1000 * burst) / perSecond);
  return {
    async stop() {
      clearInterval(timer);
      await Promise.all(pending);
      return statuses;
    },
  };
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
  // The control: a side process that sends nothing, so the table shows what starting and running
  // a side process costs the reads' client on its shared core, and the run's noise.
  none: () => ({ stop: async () => ({}) }),
  // 200 wrong-password sign-ins fired together every second, as the issue's flood (200 at once;
  // --login-per-second).
  login: () =>
    openLoop(
      job.loginPerSecond ?? 200,
      (i) =>
        postJson(`${BASE}/users/sign_in`, { email: `flood${i}@example.org`, password: 'wrong-password-1' }),
      { burst: job.loginPerSecond ?? 200 },
    ),
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
  // Ten 19 MB article downloads at all times (the issue's "10 downloads of a 19 MB PDF"), and 20
  // spreadsheet exports a second (--heavy-pdfs, --heavy-exports), each with a fresh cache-buster (whole database and one measurand
  // in turn). Counted as `kind:status`, so each kind's rate shows.
  heavy: () => {
    const pdfs = stream(
      job.heavyPdfs ?? 10,
      async () => `pdf:${await download(`${BASE}/api/references/${job.pdfReference}/file`)}`,
    );
    const exports = openLoop(job.heavyExports ?? 20, async (i) =>
      i % 2 === 0
        ? `export:${await download(`${BASE}/export/bv_database.xlsx?cb=${i}-${Math.random()}`)}`
        : `analyte:${await download(`${BASE}/export_by_analyte/${job.analyteId}.xlsx?utm_source=${i}`)}`,
    );
    return {
      async stop() {
        const stopped = Promise.all([pdfs.stop(), exports.stop()]);
        cutDownloads();
        const [a, b] = await stopped;
        return { ...a, ...b };
      },
    };
  },
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
