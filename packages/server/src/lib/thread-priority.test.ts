import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './password.js';

// The password-hashing thread runs in Linux's SCHED_IDLE class at nice 15 (decisions 034, 035), so a
// login flood's hashes take the event loop's core only when the event loop waits.
const SCHED_IDLE = 5;
/** util-linux's chrt sets the class; where it is missing only the niceness can be lowered. */
const HAS_CHRT = spawnSync('chrt', ['--version'], { stdio: 'ignore' }).status === 0;

/** Scheduling policy and niceness of each thread of this process, from /proc (Linux). */
function threads(): { policy: number; nice: number }[] {
  return fs.readdirSync('/proc/self/task').map((tid) => {
    const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): state is field 3, so index = field - 3.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { nice: Number(fields[19 - 3]), policy: Number(fields[41 - 3]) };
  });
}

describe.runIf(process.platform === 'linux')('the password-hashing thread', () => {
  it('hashes at nice 15, in SCHED_IDLE where chrt is installed, and its hashes still verify', async () => {
    expect(threads().some((t) => t.nice === 15 || t.policy === SCHED_IDLE)).toBe(false);
    const stored = await hashPassword('correct horse battery staple');
    const hashing = threads().filter((t) => t.nice === 15);
    expect(hashing).toHaveLength(1);
    expect(hashing[0]!.policy === SCHED_IDLE).toBe(HAS_CHRT);
    expect(await verifyPassword('correct horse battery staple', stored)).toBe(true);
    expect(await verifyPassword('wrong horse', stored)).toBe(false);
  });
});
