// The sign-in throttle's counters and rule, shared by its two stores (the table and the memory).

/** One counter: its key and how many password checks it admits before it locks. */
export interface ThrottleKey {
  key: string;
  limit: number;
}

export interface ThrottlePolicy {
  /** A run of attempts is forgotten this long after its start (or after its last lock ended). */
  windowMs: number;
  /** The first lock; each further checked attempt doubles it, up to `maxLockMs`. */
  baseLockMs: number;
  maxLockMs: number;
}
