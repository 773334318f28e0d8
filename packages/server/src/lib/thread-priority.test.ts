import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './password.js';
import { SIGN_IN_NICENESS } from './thread-priority.js';

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
    // Relative to the niceness this process was started at (`nice npm test` raises every thread's):
    // niceness is only ever raised, so the hashing thread runs at 15 or at the process's own when
    // that is already higher.
    const base = os.getPriority();
    const expected = Math.max(base, SIGN_IN_NICENESS);
    const lowered = () => threads().filter((t) => t.nice > base || t.policy === SCHED_IDLE);
    expect(lowered()).toEqual([]);
    const stored = await hashPassword('correct horse battery staple');
    const hashing = lowered();
    if (expected > base || HAS_CHRT) {
      expect(hashing).toHaveLength(1);
      expect(hashing[0]!.nice).toBe(expected);
      expect(hashing[0]!.policy === SCHED_IDLE).toBe(HAS_CHRT);
    } else {
      // Started at nice 15 or more without chrt: the thread cannot be told apart, and none was raised.
      expect(hashing).toEqual([]);
    }
    expect(await verifyPassword('correct horse battery staple', stored)).toBe(true);
    expect(await verifyPassword('wrong horse', stored)).toBe(false);
  });
});
