import { performance } from 'node:perf_hooks';
import { afterAll, describe, expect, it } from 'vitest';
import { AppError } from './app-error.js';
import { WorkerPool } from './worker-pool.js';

const poolOf = (timeoutMs: number, size = 1) =>
  new WorkerPool<'echo' | 'refuse' | 'spin' | 'eat' | 'thread' | { sum: Uint8Array }, string>({
    from: new URL('../test/', import.meta.url).href,
    file: './pool-test.thread.js',
    size,
    timeoutMs,
    resourceLimits: { maxOldGenerationSizeMb: 64 },
    tooLong: { code: 'payload_too_large', message: 'too long' },
    tooLarge: { code: 'payload_too_large', message: 'too large' },
    busy: 'busy',
  });
const pool = poolOf(3000);
// The heap test's own pool: a thread started through tsx on a busy machine can take seconds, so
// only its heap, never its time limit, may end the task there.
const heapPool = poolOf(60_000);
afterAll(async () => {
  await pool.close();
  await heapPool.close();
});

const failure = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (err: unknown) => err,
  );

describe('a pool of worker threads with limits', () => {
  it('moves a transferred buffer to the thread: the thread reads every byte, the sender keeps none', async () => {
    // An upload's bytes (issue 44.1): moved, not copied on the event loop.
    const bytes = new Uint8Array(new ArrayBuffer(100_010), 10, 100_000).fill(3);
    expect(await pool.run({ sum: bytes }, [bytes.buffer])).toBe('sum 300000 of 100000');
    expect(bytes.buffer.byteLength).toBe(0); // detached here
    // Without a transfer list the task is copied, as before.
    const copied = new Uint8Array(1000).fill(1);
    expect(await pool.run({ sum: copied })).toBe('sum 1000 of 1000');
    expect(copied.byteLength).toBe(1000);
  });

  it('warms every thread it may start: each answers the warm-up once, and a task asked meanwhile waits its turn', async () => {
    const two = poolOf(30_000, 2);
    try {
      const warming = two.warmUp('thread');
      const asked = two.run('echo');
      expect(two.load).toEqual({ running: 2, waiting: 1 });
      const answers = await warming;
      expect(answers).toHaveLength(2);
      expect(new Set(answers).size).toBe(2);
      expect(await asked).toBe('echo from a thread');
    } finally {
      await two.close();
    }
  }, 60_000);

  it('answers, and passes an AppError on as one', async () => {
    expect(await pool.run('echo')).toBe('echo from a thread');
    const err = await failure(pool.run('refuse'));
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ code: 'bad_request', message: 'refused on purpose' });
  }, 30_000);

  it('a task past its time ends its thread only: the event loop stays free, the next task is served', async () => {
    let late = 0;
    let due = performance.now() + 10;
    const timer = setInterval(() => {
      late = Math.max(late, performance.now() - due);
      due = performance.now() + 10;
    }, 10);
    const err = await failure(pool.run('spin'));
    clearInterval(timer);
    expect(err).toMatchObject({ code: 'payload_too_large', message: 'too long' });
    expect(late).toBeLessThan(200);
    expect(await pool.run('echo')).toBe('echo from a thread');
  }, 30_000);

  it('a task that cannot be sent to a thread fails alone with a 400; the thread serves the next', async () => {
    const err = await failure(pool.run((() => 'echo') as unknown as 'echo'));
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ code: 'bad_request' });
    expect((err as Error).message).toMatch(/^The request cannot be sent to a thread: .*could not be cloned/);
    expect(pool.load).toEqual({ running: 0, waiting: 0 });
    expect(await pool.run('echo')).toBe('echo from a thread');
  }, 30_000);

  it('a task past its heap ends its thread only, with the message for it; the process lives on', async () => {
    const err = await failure(heapPool.run('eat'));
    expect(err).toMatchObject({ code: 'payload_too_large', message: 'too large' });
    expect(await heapPool.run('echo')).toBe('echo from a thread');
  }, 90_000);
});
