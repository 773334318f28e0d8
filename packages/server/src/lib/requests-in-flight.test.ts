import { afterEach, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import http from 'node:http';
import { registerRequestsInFlight } from '../plugins/requests-in-flight.js';
import { requestsInFlight, requestStarted, untilNoRequests } from './requests-in-flight.js';

// Decision 114: background work that can wait waits for a moment with no request being answered.
const settledWithin = async (promise: Promise<void>, ms: number) =>
  Promise.race([promise.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);

describe('requests in flight', () => {
  const ends: (() => void)[] = [];
  afterEach(() => ends.splice(0).forEach((end) => end()));

  it('a quiet moment comes at once when none is being answered', async () => {
    expect(requestsInFlight()).toBe(0);
    expect(await settledWithin(untilNoRequests(10_000), 50)).toBe(true);
  });

  it('comes when the last one ends, each counted out once however often its end is called', async () => {
    const first = requestStarted();
    const second = requestStarted();
    ends.push(first, second);
    const quiet = untilNoRequests(10_000);
    first();
    first();
    expect(requestsInFlight()).toBe(1);
    expect(await settledWithin(quiet, 100)).toBe(false);
    second();
    expect(await settledWithin(quiet, 100)).toBe(true);
    expect(requestsInFlight()).toBe(0);
  });

  it('comes after the longest wait under a steady stream', async () => {
    ends.push(requestStarted());
    const started = performance.now();
    await untilNoRequests(150);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    expect(requestsInFlight()).toBe(1);
  });

  it('counts a request from its start until it is sent, or its client goes away', async () => {
    const app = Fastify();
    registerRequestsInFlight(app);
    let release = () => {};
    app.get('/count', async () => ({ inFlight: requestsInFlight() }));
    app.get('/slow', () => new Promise((resolve) => (release = () => resolve({ ok: true }))));
    expect((await app.inject({ url: '/count' })).json()).toEqual({ inFlight: 1 });
    expect(requestsInFlight()).toBe(0);

    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };
    // Over a kept-alive connection too: counted out when the answer is sent, the socket still open.
    const sent = await fetch(`http://127.0.0.1:${port}/count`);
    expect(await sent.json()).toEqual({ inFlight: 1 });
    expect(await settledWithin(untilNoRequests(10_000), 2_000)).toBe(true);
    const gone = http.get({ port, host: '127.0.0.1', path: '/slow' }).on('error', () => {});
    while (requestsInFlight() === 0) await new Promise((r) => setTimeout(r, 5));
    gone.destroy();
    expect(await settledWithin(untilNoRequests(10_000), 2_000)).toBe(true);
    release();
    await app.close();
  });
});
