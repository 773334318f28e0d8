import { randomBytes, timingSafeEqual } from 'node:crypto';
import os from 'node:os';
import { AppError } from './app-error.js';
import { passwordHasher } from './password-hasher.js';

// OWASP Password Storage Cheat Sheet: scrypt with N=2^17, r=8, p=1.
const PARAMS = { N: 2 ** 17, r: 8, p: 1 } as const;
const KEY_LENGTH = 64;
const MAX_MEM = 256 * 1024 * 1024;

/**
 * scrypt runs in worker threads of background priority (lib/password-hasher.ts), not on libuv's
 * pool that reads static files and the data folder. At most this many hashes run at once: one on a
 * machine of two cores or fewer (each hash is a core for ~0.3 s and 128 MiB of memory traffic), two
 * above (docs/decisions/018-sign-in-throttle.md, 031-background-priority.md).
 */
export const HASHING_CONCURRENCY = os.availableParallelism() <= 2 ? 1 : 2;
/** Hashes admitted (running or waiting): a short queue of a few seconds. Beyond it: 503 with Retry-After. */
export const HASHING_ADMITTED = 6;
const BUSY_RETRY_AFTER_SECONDS = 5;

function derive(password: string, salt: Buffer, opts: { N: number; r: number; p: number }): Promise<Buffer> {
  return passwordHasher.derive(password.normalize('NFKC'), salt, KEY_LENGTH, { ...opts, maxmem: MAX_MEM });
}

let admitted = 0;
let running = 0;
const waiting: (() => void)[] = [];

async function withRunSlot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= HASHING_CONCURRENCY) await new Promise<void>((resolve) => waiting.push(resolve));
  else running++;
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    // The slot passes straight to the next waiter, so `running` never over-counts.
    if (next) next();
    else running--;
  }
}

/** A place in the hashing queue, taken before any other work so a refused request costs nothing. */
export interface HashingTicket {
  hash(password: string): Promise<string>;
  verify(password: string, stored: string): Promise<boolean>;
  /** Gives the place back; safe to call more than once. */
  release(): void;
}

const BUSY_MESSAGE = 'The server is busy checking other passwords; please try again in a few seconds.';

export class HashingBusyError extends AppError {
  constructor() {
    super('unavailable', BUSY_MESSAGE, { headers: { 'Retry-After': String(BUSY_RETRY_AFTER_SECONDS) } });
  }
}

/**
 * The 503 a full queue answers, ready to send as is: during a flood most password requests get it,
 * so it is built once, not as an error per request (a thrown error captures a stack: ~25 µs each).
 * The same shape and headers as HashingBusyError through the error handler.
 */
export const HASHING_BUSY_ANSWER = {
  statusCode: 503,
  headers: { 'Retry-After': String(BUSY_RETRY_AFTER_SECONDS) },
  body: JSON.stringify({ error: 'Service Unavailable', message: BUSY_MESSAGE, statusCode: 503 }),
} as const;

let refused = 0;

/** Counts a caller refused for a full queue (lib/metrics.ts); the fast path's replays count apart. */
export function countHashingRefusal(): void {
  refused++;
}

/** Whether a caller would be refused now: checked before a request's body is even read. */
export function hashingQueueFull(): boolean {
  return admitted >= HASHING_ADMITTED;
}

/** Admits one caller to the hashing queue, or throws HashingBusyError (503) when it is full. */
export function admitHashing(): HashingTicket {
  if (admitted >= HASHING_ADMITTED) {
    refused++;
    throw new HashingBusyError();
  }
  admitted++;
  let released = false;
  return {
    hash: (password) => withRunSlot(() => derivePasswordHash(password)),
    verify: (password, stored) => withRunSlot(() => checkPassword(password, stored)),
    release: () => {
      if (released) return;
      released = true;
      admitted--;
    },
  };
}

/** How many hashes are admitted and running now (for tests and measurements). */
export function hashingLoad(): { admitted: number; running: number } {
  return { admitted, running };
}

/** Callers refused so far for a full queue, in this process (lib/metrics.ts). */
export function hashingRefusals(): number {
  return refused;
}

async function withTicket<T>(work: (ticket: HashingTicket) => Promise<T>): Promise<T> {
  const ticket = admitHashing();
  try {
    return await work(ticket);
  } finally {
    ticket.release();
  }
}

/** `scrypt$N$r$p$salt$hash`, so parameters can be raised later without breaking old hashes. */
async function derivePasswordHash(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, PARAMS);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64'), key.toString('base64')].join('$');
}

async function checkPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const key = await derive(password, Buffer.from(salt, 'base64'), {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** Hashes a new password through the bounded queue (503 when it is full). */
export function hashPassword(password: string): Promise<string> {
  return withTicket((t) => t.hash(password));
}

/** Checks a password against a stored hash through the bounded queue (503 when it is full). */
export function verifyPassword(password: string, stored: string): Promise<boolean> {
  return withTicket((t) => t.verify(password, stored));
}

/**
 * A hash of no one's password, to verify against when the e-mail is unknown so both paths cost one
 * scrypt run (and the answer cannot tell whether the account exists).
 */
export const DUMMY_PASSWORD_HASH =
  'scrypt$131072$8$1$AAAAAAAAAAAAAAAAAAAAAA==$' +
  'bfCCjYtdapzQ7yuij8fh1D9tE6RiEmflZTMkQMEdYpIDn5W0rTafObgF5cOZtUnm1CSkdJz1lRJrrAdFfNkrRA==';
