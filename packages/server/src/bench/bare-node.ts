// What the read benches compare bvdb with (issue 26, point 7): a bare Node `http` server sending
// the very bytes bvdb sent, from memory, with the headers that describe them, in the same process
// and the same run, so only the ratio of the two figures counts on a shared machine.
import { spawn } from 'node:child_process';
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
 * `loadOf` with the client in a process of its own, so that this process's CPU time is the
 * server's alone: besides requests a second, the CPU milliseconds the server spent per thousand
 * answers. On a shared machine a server's throughput moves with its neighbours' load; its CPU
 * per answer moves far less, so the ratio of capacities (answers per CPU second) is the steadier
 * figure.
 */
export async function loadApart(
  url: string,
  opts: { seconds: number; connections: number; headers: Record<string, string> },
): Promise<{ rps: number; p99: number; errors: number; cpuMsPerThousand: number }> {
  const args = [AUTOCANNON_CLI, '-j', '-n', '-c', String(opts.connections), '-d', String(opts.seconds)];
  for (const [name, value] of Object.entries(opts.headers)) args.push('-H', `${name}=${value}`);
  args.push(url);
  const cpu = process.cpuUsage();
  const out = await new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'ignore'] });
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`autocannon exited ${code}`))));
  });
  const used = process.cpuUsage(cpu);
  const r = JSON.parse(out) as {
    requests: { average: number; total: number };
    latency: { p99: number };
    errors: number;
    timeouts: number;
    non2xx: number;
  };
  return {
    rps: r.requests.average,
    p99: r.latency.p99,
    errors: r.errors + r.timeouts + r.non2xx,
    cpuMsPerThousand: (used.user + used.system) / Math.max(1, r.requests.total),
  };
}
