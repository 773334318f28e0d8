import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { EXIT_FAULT } from './last-resort.js';

const lastResort = fileURLToPath(new URL('./last-resort.ts', import.meta.url));

/** A process with the last resort installed, whose `body` then faults. */
function runFaulting(body: string) {
  const script = `
    import { installLastResort } from ${JSON.stringify(lastResort)};
    installLastResort({ fatal: (obj, msg) => console.log(JSON.stringify({ ...obj, err: String(obj.err), msg })) },
      () => ['req-7', 'req-9']);
    ${body}
    setTimeout(() => console.log('RESUMED'), 300);`;
  return spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    encoding: 'utf8',
    timeout: 20_000,
  });
}

describe('the last resort for an uncaught fault (issue 25, point 1)', () => {
  it('a throw from a timer is logged with its request id and the requests started last, and the process exits non-zero', () => {
    const res = runFaulting(
      `setTimeout(() => { throw Object.assign(new Error('boom from a timer'), { reqId: 'req-7' }); }, 10);`,
    );
    expect(res.status).toBe(EXIT_FAULT);
    expect(res.stdout).not.toContain('RESUMED');
    const logged = JSON.parse(res.stdout.trim().split('\n')[0]!) as Record<string, unknown>;
    expect(logged).toMatchObject({
      err: 'Error: boom from a timer',
      origin: 'uncaughtException',
      reqId: 'req-7',
      recentRequests: ['req-7', 'req-9'],
    });
  });

  it('a rejected promise nobody awaited ends the process the same way', () => {
    const res = runFaulting(`void Promise.reject(new Error('nobody awaited me'));`);
    expect(res.status).toBe(EXIT_FAULT);
    expect(res.stdout).not.toContain('RESUMED');
    expect(res.stdout).toContain('"origin":"unhandledRejection"');
  });
});
