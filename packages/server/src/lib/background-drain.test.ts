import { describe, expect, it } from 'vitest';
import { BackgroundDrain } from './background-drain.js';

describe('a background drain', () => {
  it('runs one drain at a time, and idle waits for the queue to be empty', async () => {
    const queue: number[] = [];
    const done: number[] = [];
    let drains = 0;
    const drain = new BackgroundDrain(
      async () => {
        drains++;
        for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
          await new Promise((resolve) => setImmediate(resolve));
          done.push(next);
        }
      },
      () => queue.length > 0,
    );
    queue.push(1, 2);
    drain.start();
    drain.start();
    await drain.idle();
    expect(done).toEqual([1, 2]);
    expect(drains).toBe(1);
  });

  it('starts again for work added after the drain last looked at the queue, before it settled', async () => {
    const queue: number[] = [];
    const done: number[] = [];
    let drainEnded!: () => void;
    const drain = new BackgroundDrain(
      async () => {
        for (let next = queue.shift(); next !== undefined; next = queue.shift()) done.push(next);
        // The drain saw an empty queue; something adds before its promise settles.
        await new Promise<void>((resolve) => (drainEnded = resolve));
      },
      () => queue.length > 0,
    );
    queue.push(1);
    drain.start();
    queue.push(2);
    drain.start(); // a drain is running: this start does nothing
    drainEnded();
    await new Promise((resolve) => setImmediate(resolve));
    drainEnded();
    await drain.idle();
    expect(done).toEqual([1, 2]);
  });
});
