import { describe, expect, it } from 'vitest';
import { MemoryLoginThrottle } from './login-throttle.memory.js';

const POLICY = { windowMs: 15 * 60_000, baseLockMs: 60_000, maxLockMs: 60 * 60_000 };
const keys = (email: string, ip: string) => [
  { key: `account:${email}`, limit: 20 },
  { key: `account+address:${email}|${ip}`, limit: 5 },
];

describe('the in-memory sign-in throttle (embedded database)', () => {
  it('locks at the limit for a minute, doubling with each further counted attempt', () => {
    const t = new MemoryLoginThrottle();
    const at = new Date('2026-01-01T00:00:00Z');
    for (let i = 0; i < 5; i++) expect(t.admit(keys('a@x.org', '1.1.1.1'), POLICY, at)).toBe(true);
    expect(t.admit(keys('a@x.org', '1.1.1.1'), POLICY, at)).toBe(false);
    expect(t.lockedUntil(keys('a@x.org', '1.1.1.1').map((k) => k.key))!.getTime() - at.getTime()).toBe(
      60_000,
    );
    const later = new Date(at.getTime() + 61_000);
    expect(t.admit(keys('a@x.org', '1.1.1.1'), POLICY, later)).toBe(true);
    expect(t.lockedUntil(['account+address:a@x.org|1.1.1.1'])!.getTime() - later.getTime()).toBe(120_000);
  });

  it('counts all keys of an attempt or none: a locked pair does not spend the account', () => {
    const t = new MemoryLoginThrottle();
    const at = new Date('2026-01-01T00:00:00Z');
    for (let i = 0; i < 5; i++) t.admit(keys('b@x.org', '1.1.1.1'), POLICY, at);
    for (let i = 0; i < 10; i++) expect(t.admit(keys('b@x.org', '1.1.1.1'), POLICY, at)).toBe(false);
    // 5 counted of the account's 20: a fresh address still gets its own 5 checks.
    for (let i = 0; i < 5; i++) expect(t.admit(keys('b@x.org', '2.2.2.2'), POLICY, at)).toBe(true);
  });

  it('takes back a counted check when the password was right, and forgets the address run', () => {
    const t = new MemoryLoginThrottle();
    const at = new Date('2026-01-01T00:00:00Z');
    for (let i = 0; i < 4; i++) t.admit(keys('c@x.org', '1.1.1.1'), POLICY, at);
    t.forget('account+address:c@x.org|1.1.1.1');
    t.uncount({ key: 'account:c@x.org', limit: 20 });
    for (let i = 0; i < 5; i++) expect(t.admit(keys('c@x.org', '1.1.1.1'), POLICY, at)).toBe(true);
  });

  it('drops forgotten counters, so a flood of unknown e-mails does not grow memory without end', () => {
    const t = new MemoryLoginThrottle();
    const start = Date.parse('2026-01-01T00:00:00Z');
    for (let i = 0; i < 1_500; i++) t.admit(keys(`flood${i}@x.org`, '9.9.9.9'), POLICY, new Date(start));
    expect(t.size).toBe(3_000);
    // Past the window, the next thousand attempts sweep the old counters away.
    const later = start + POLICY.windowMs + 1;
    for (let i = 0; i < 1_000; i++) t.admit(keys(`late${i}@x.org`, '9.9.9.9'), POLICY, new Date(later));
    expect(t.size).toBeLessThanOrEqual(2_000);
  });
});
