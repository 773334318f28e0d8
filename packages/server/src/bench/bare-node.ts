// What the read benches compare bvdb with (issue 26, point 7): a bare Node `http` server sending
// the very bytes bvdb sent, from memory, with the headers that describe them, in the same process
// and the same run, so only the ratio of the two figures counts on a shared machine.
import { spawn, spawnSync } from 'node:child_process';
import http from 'node:http';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';

export interface Fetched {
  ms: number;
  status: number;
  body: Buffer;
  headers: http.IncomingHttpHeaders;
}

/** One GET, its body kept as sent (still compressed). */
export function fetchOnce(url: string, headers: Record<string, string>): Promise<Fetched> {
  return new Promise((resolve, reject) => {
    const t = performance.now();
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            ms: performance.now() - t,
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks),
            headers: res.headers,
          }),
        );
      })
      .on('error', reject);
  });
}

/** Requests a second, p99 and failures of `url` under `connections` keep-alive clients. */
export async function loadOf(
  url: string,
  opts: { seconds: number; connections: number; headers: Record<string, string> },
): Promise<{ rps: number; p99: number; errors: number }> {
  const r = await autocannon({
    url,
    connections: opts.connections,
    // The client in its own thread, so the server's event loop is not also the client's.
    workers: 1,
    duration: opts.seconds,
    timeout: 60,
    headers: opts.headers,
  });
  return { rps: r.requests.average, p99: r.latency.p99, errors: r.errors + r.timeouts + r.non2xx };
}

/** A bare Node server that sends `body` with the headers describing it that bvdb sent. */
export async function bareServer(
  body: Buffer,
  headers: http.IncomingHttpHeaders,
): Promise<{ url: string; close: () => void }> {
  const sent: Record<string, string> = { 'content-length': String(body.length) };
  for (const name of ['content-type', 'content-encoding', 'etag']) {
    const value = headers[name];
    if (typeof value === 'string') sent[name] = value;
  }
  const server = http.createServer((_req, res) => {
    res.writeHead(200, sent);
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  return {
    url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
    close: () => server.close(),
  };
}

const AUTOCANNON_CLI = createRequire(import.meta.url).resolve('autocannon/autocannon.js');

/**
 * The load client of `loadApart`: `wrk` (C, one thread, issue 44.4 names it) when it is installed
 * (Debian's `wrk` package) and BENCH_LOAD_CLIENT is not `autocannon`, else autocannon's command line.
 */
export const loadClient: 'wrk' | 'autocannon' =
  process.env.BENCH_LOAD_CLIENT !== 'autocannon' &&
  spawnSync('wrk', ['--version'], { stdio: 'ignore' }).error === undefined
    ? 'wrk'
    : 'autocannon';

interface ClientFigures {
  rps: number;
  total: number;
  p99: number;
  errors: number;
}

/** Runs `cmd args` to its end: its standard output as text. */
function runClient(cmd: string, args: string[]): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'ignore'] });
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`${cmd} exited ${code}`))));
  });
}

/** A wrk latency (`812.00us`, `1.20ms`, `2.01s`) in milliseconds. */
function wrkMs(text: string): number {
  const m = /([\d.]+)(us|ms|s|m)\b/.exec(text);
  if (!m) return NaN;
  const scale = { us: 0.001, ms: 1, s: 1000, m: 60_000 }[m[2] as 'us' | 'ms' | 's' | 'm'];
  return Number(m[1]) * scale;
}

/** wrk's text report (`--latency`): requests a second and in all, p99, failures. */
export function parseWrk(out: string): ClientFigures {
  const total = Number(/(\d+) requests in /.exec(out)?.[1] ?? NaN);
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN);
  const p99 = wrkMs(/\s99(?:\.000)?%\s+(\S+)/.exec(out)?.[1] ?? '');
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  const errors = non2xx + (socket ? socket.slice(1).reduce((s, n) => s + Number(n), 0) : 0);
  if (!Number.isFinite(total) || !Number.isFinite(rps)) throw new Error(`wrk: no figures in\n${out}`);
  return { rps, total, p99, errors };
}

async function runWrk(
  url: string,
  opts: { seconds: number; connections: number; headers: Record<string, string> },
): Promise<ClientFigures> {
  // One thread: wrk keeps 50 connections busy from one core, leaving the other to the server.
  const args = ['-t', '1', '-c', String(opts.connections), '-d', `${opts.seconds}s`, '--latency'];
  for (const [name, value] of Object.entries(opts.headers)) args.push('-H', `${name}: ${value}`);
  args.push(url);
  return parseWrk(await runClient('wrk', args));
}

async function runAutocannon(
  url: string,
  opts: { seconds: number; connections: number; headers: Record<string, string> },
): Promise<ClientFigures> {
  const args = [AUTOCANNON_CLI, '-j', '-n', '-c', String(opts.connections), '-d', String(opts.seconds)];
  for (const [name, value] of Object.entries(opts.headers)) args.push('-H', `${name}=${value}`);
  args.push(url);
  const r = JSON.parse(await runClient(process.execPath, args)) as {
    requests: { average: number; total: number };
    latency: { p99: number };
    errors: number;
    timeouts: number;
    non2xx: number;
  };
  return {
    rps: r.requests.average,
    total: r.requests.total,
    p99: r.latency.p99,
    errors: r.errors + r.timeouts + r.non2xx,
  };
}

/**
 * `loadOf` with the client in a process of its own (`loadClient`: wrk when installed, else
 * autocannon), so that this process's CPU time is the server's alone: besides requests a second,
 * the CPU milliseconds the server spent per thousand answers. On a shared machine a server's
 * throughput moves with its neighbours' load; its CPU per answer moves far less, so the ratio of
 * capacities (answers per CPU second) is the steadier figure.
 */
export async function loadApart(
  url: string,
  opts: { seconds: number; connections: number; headers: Record<string, string> },
): Promise<{ rps: number; p99: number; errors: number; cpuMsPerThousand: number }> {
  const cpu = process.cpuUsage();
  const r = await (loadClient === 'wrk' ? runWrk(url, opts) : runAutocannon(url, opts));
  const used = process.cpuUsage(cpu);
  return {
    rps: r.rps,
    p99: r.p99,
    errors: r.errors,
    cpuMsPerThousand: (used.user + used.system) / Math.max(1, r.total),
  };
}
