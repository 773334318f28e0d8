import { spawn, type ChildProcess } from 'node:child_process';

/**
 * The prober: `/healthz` every 20 ms on one kept-alive connection; on 'mark' it answers what it saw
 * since, with each answer over 100 ms as when it was asked (epoch ms) and how long it took.
 */
const PROBER = `
const http = require('node:http');
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const url = process.argv[1];
let worst = 0, over = 0, count = 0, holds = [];
function probe() {
  const t = performance.now();
  http.get(url, { agent }, (res) => {
    res.resume();
    res.on('end', () => {
      const ms = performance.now() - t;
      worst = Math.max(worst, ms); count++;
      if (ms > 100) { over++; holds.push({ at: Date.now() - ms, ms }); }
      setTimeout(probe, 20);
    });
  }).on('error', () => setTimeout(probe, 20));
}
process.on('message', () => { process.send({ worst, over, count, holds }); worst = 0; over = 0; count = 0; holds = []; });
probe();`;

export function startProber(base: string): ChildProcess {
  return spawn(process.execPath, ['-e', PROBER, `${base}/healthz`], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
}

/** What the prober saw since the last mark. */
export interface ProbeMarks {
  worst: number;
  over: number;
  count: number;
  /** Each /healthz over 100 ms: when it was asked (epoch ms) and how long it took. */
  holds: { at: number; ms: number }[];
}

export function mark(prober: ChildProcess): Promise<ProbeMarks> {
  return new Promise((resolve) => {
    prober.once('message', (m) => resolve(m as ProbeMarks));
    prober.send('mark');
  });
}
