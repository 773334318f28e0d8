import type { Worker } from 'node:worker_threads';
import { spawnWorker } from './spawn-worker.js';
import type { HashJob, HashResult } from './password-hasher.thread.js';

const spawnThread = () => spawnWorker(import.meta.url, './password-hasher.thread.js');

/**
 * scrypt off the event loop and off libuv's pool, in long-lived worker threads that lower their own
 * priority (lib/thread-priority.ts): a sign-in flood then costs the CPU the event loop does not
 * want, and static files and fs reads (libuv's pool) never queue behind a hash. The caller bounds
 * how many run at once (lib/password.ts); a thread is held (ref) only while it works, so a script
 * that hashes one password exits when done. A crashed thread fails its hash and is replaced.
 */
class PasswordHasher {
  private readonly idle: Worker[] = [];
  private nextId = 1;
  private readonly pending = new Map<
    number,
    { resolve: (key: Buffer) => void; reject: (e: Error) => void }
  >();

  private start(): Worker {
    const worker = spawnThread();
    worker.on('message', (result: HashResult) => {
      const waiting = this.pending.get(result.id);
      if (!waiting) return;
      this.pending.delete(result.id);
      worker.unref();
      this.idle.push(worker);
      if (result.ok) waiting.resolve(Buffer.from(result.key));
      else waiting.reject(new Error(`password hashing failed: ${result.message}`));
    });
    const fail = (err: Error) => {
      const at = this.idle.indexOf(worker);
      if (at >= 0) this.idle.splice(at, 1);
      const mine = (worker as Worker & { jobId?: number }).jobId;
      const waiting = mine === undefined ? undefined : this.pending.get(mine);
      if (waiting && mine !== undefined) {
        this.pending.delete(mine);
        waiting.reject(err);
      }
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`password hashing thread stopped (exit code ${code})`)));
    return worker;
  }

  derive(password: string, salt: Buffer, keyLength: number, options: HashJob['options']): Promise<Buffer> {
    const worker = this.idle.pop() ?? this.start();
    worker.ref();
    const id = this.nextId++;
    (worker as Worker & { jobId?: number }).jobId = id;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      const job: HashJob = { id, password, salt: new Uint8Array(salt), keyLength, options };
      worker.postMessage(job);
    });
  }
}

export const passwordHasher = new PasswordHasher();
