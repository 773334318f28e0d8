import { spawn, type ChildProcess } from 'node:child_process';

/** The prober: `/healthz` every 20 ms on one kept-alive connection; on 'mark' it answers what it saw since. */
const PROBER = `
const http = require('node:http');
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const url = process.argv[1];
let worst = 0, over = 0, count = 0;
function probe() {
  const t = performance.now();
  http.get(url, { agent }, (res) => {
    res.resume();
    res.on('end', () => {
      const ms = performance.now() - t;
      worst = Math.max(worst, ms); count++;
      if (ms > 100) over++;
      setTimeout(probe, 20);
    });
  }).on('error', () => setTimeout(probe, 20));
}
process.on('message', () => { process.send({ worst, over, count }); worst = 0; over = 0; count = 0; });
probe();`;

export function startProber(base: string): ChildProcess {
  return spawn(process.execPath, ['-e', PROBER, `${base}/healthz`], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
}

export function mark(prober: ChildProcess): Promise<{ worst: number; over: number; count: number }> {
  return new Promise((resolve) => {
    prober.once('message', (m) => resolve(m as { worst: number; over: number; count: number }));
    prober.send('mark');
  });
}
