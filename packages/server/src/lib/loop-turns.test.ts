import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { mapInTurns, nextTurn, turnAfter } from './loop-turns.js';

describe('nextTurn (issue 44.1)', () => {
  it('gives each waiter a turn of the event loop of its own, first come first served', async () => {
    // A chain of immediates counts the loop's turns: each link runs in the turn after the one before.
    let turn = 0;
    let counting = true;
    const count = () => {
      turn++;
      if (counting) setImmediate(count);
    };
    setImmediate(count);
    const order: number[] = [];
    const turns: number[] = [];
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        nextTurn().then(() => {
          order.push(i);
          turns.push(turn);
        }),
      ),
    );
    counting = false;
    expect(order).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(new Set(turns).size).toBe(20);
  });

  it('lets a request be answered between two pieces of work that were waiting together', async () => {
    const server = http.createServer((_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const events: string[] = [];
    const answered = new Promise<void>((resolve) =>
      http.get(`http://127.0.0.1:${port}/`, (res) => {
        res.resume();
        res.on('end', () => {
          events.push('answered');
          resolve();
        });
      }),
    );
    // The request is on its way; forty pieces of work of 20 ms each wait for their turns.
    const work = Array.from({ length: 40 }, () =>
      nextTurn().then(() => {
        const until = Date.now() + 20;
        while (Date.now() < until);
        events.push('work');
      }),
    );
    await Promise.all([answered, ...work]);
    server.close();
    // Answered long before the last piece: not after 800 ms of work done in one go.
    expect(events.indexOf('answered')).toBeLessThan(30);
  });

  it('maps a list a step at a time, in order, with other work between steps', async () => {
    const items = Array.from({ length: 60 }, (_, i) => i);
    const seen: string[] = [];
    const others = [nextTurn().then(() => seen.push('other')), nextTurn().then(() => seen.push('other'))];
    const mapping = mapInTurns(items, (i) => (seen.push('item'), i * 2), 25);
    // Nothing made in the caller's own turn: rows that arrive beside other answers' rows (a pool
    // delivering several in one poll) do not add their first items to that turn.
    expect(seen).toEqual([]);
    const mapped = await mapping;
    await Promise.all(others);
    expect(mapped).toEqual(items.map((i) => i * 2));
    // Every step, the first too, waits its turn behind what was waiting before it.
    expect(seen.slice(0, 3)).toEqual(['other', 'other', 'item']);
    expect(seen.filter((s) => s === 'item').length).toBe(60);
  });
});

describe('turnAfter (issue 44.1)', () => {
  it('asks for a turn only once its milliseconds have passed, and a timer runs in that turn', async () => {
    const pause = turnAfter(20);
    // Within the first 20 ms: never a turn, whatever the number of calls.
    const started = performance.now();
    let early = 0;
    while (performance.now() - started < 5) if (pause()) early++;
    expect(early).toBe(0);
    let fired = false;
    setTimeout(() => (fired = true), 0);
    while (performance.now() - started < 25); // busy past the 20 ms, as a long loop is
    let turn: Promise<void> | undefined;
    for (let i = 0; i < 32 && !turn; i++) turn = pause();
    expect(turn).toBeInstanceOf(Promise);
    expect(fired).toBe(false);
    await turn;
    expect(fired).toBe(true);
    // The clock starts again after the turn.
    let again = 0;
    for (let i = 0; i < 64; i++) if (pause()) again++;
    expect(again).toBe(0);
  });
});
