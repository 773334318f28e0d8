import * as contract from '@bvdb/contract';
import type { RouteDef } from '@bvdb/contract';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { z } from 'zod';
import { beforeAll, describe, expect, it } from 'vitest';
import { signInAs, type SignedIn } from './test/sign-in.js';
import { useTestApp } from './test/test-app.js';
import { MAX_JSON_DEPTH } from './lib/json-depth.js';
import { errorMessageOf } from './test/error-message.js';

/**
 * Property-based tests over the whole contract: whatever a client sends in a path, a query or a
 * body, every route answers with a 4xx and a message (or a success), never a 500. The classes that
 * once reached the database and failed there are generated on purpose: ids and versions past
 * PostgreSQL's integer, NUL bytes in text, and broken multipart bodies.
 */
const ctx = useTestApp({ demo: true });
let s: SignedIn;
beforeAll(async () => {
  s = await signInAs(ctx.app);
});

const isRoute = (v: unknown): v is RouteDef =>
  typeof v === 'object' && v !== null && 'method' in v && 'path' in v && 'responses' in v;

// Signing in or out, or changing the password, would end the session the other cases use (and
// each costs a password hash); their inputs are covered by the auth tests.
const SKIP = new Set(['POST /users/sign_in', 'DELETE /users/sign_out', 'PUT /users']);
const ROUTES = (Object.values(contract) as unknown[])
  .filter(isRoute)
  .filter((r) => !SKIP.has(`${r.method} ${r.path}`));

/** Texts that once broke a route: past int4, NUL (raw and URL-encoded), numbers too large for anything. */
const hostileText = fc.oneof(
  fc.constantFrom('2147483648', '4294967296', '9223372036854775808', '1e400', '-1', '0x10', ''),
  fc.bigInt({ min: 2n ** 31n, max: 2n ** 80n }).map(String),
  fc.string({ maxLength: 8 }).map((t) => `${t}\u0000${t}`),
  fc.constantFrom('\u0000', 'a\u0000b', '%00', '%2500'),
  fc.string({ maxLength: 12 }),
);

const hostileJson: fc.Arbitrary<unknown> = fc.oneof(
  hostileText,
  fc.constantFrom(2147483648, 2 ** 53, -1, 0, 1.5, 1e300, true, null),
  fc.array(fc.oneof(hostileText, fc.constantFrom(2147483648, 1, 2 ** 40)), { maxLength: 3 }),
);

const shapeKeys = (schema: unknown): string[] =>
  schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];

function urlOf(route: RouteDef, params: string[], query: [string, string][]): string {
  let i = 0;
  const path = route.path
    .replace(/:[A-Za-z_]+/g, () => encodeURIComponent(params[i++] ?? '1'))
    .replace(/\*$/, encodeURIComponent(params[i++] ?? 'x'));
  const qs = query.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
  return qs ? `${path}?${qs}` : path;
}

function expectHandled(label: string, res: LightMyRequestResponse) {
  const handled = { label, status: res.statusCode };
  expect(handled).toEqual({ label, status: expect.any(Number) });
  if (res.statusCode >= 500 && res.statusCode !== 502 && res.statusCode !== 503) {
    throw new Error(`${label} answered ${res.statusCode}: ${res.body.slice(0, 300)}`);
  }
  if (res.statusCode >= 400 && res.headers['content-type']?.toString().includes('json')) {
    if (errorMessageOf(res) === null) {
      throw new Error(`${label} answered ${res.statusCode} without a message: ${res.body.slice(0, 300)}`);
    }
  }
}

describe('every route of the contract, whatever it is sent', () => {
  it.each(ROUTES.map((r) => [`${r.method} ${r.path}`, r] as const))(
    '%s: hostile paths, queries and bodies answer 4xx with a message, never 5xx',
    async (label, route) => {
      const paramCount = (route.path.match(/:[A-Za-z_]+|\*$/g) ?? []).length;
      const queryKeys = [...new Set([...shapeKeys(route.query), 'id', 'search', 'query', 'page', 'version'])];
      const bodyKeys = shapeKeys(route.body);
      await fc.assert(
        fc.asyncProperty(
          fc.array(hostileText, { minLength: paramCount, maxLength: paramCount }),
          fc.array(fc.tuple(fc.constantFrom(...queryKeys), hostileText), { maxLength: 3 }),
          fc.dictionary(fc.constantFrom(...(bodyKeys.length ? bodyKeys : ['x'])), hostileJson, {
            maxKeys: 4,
          }),
          async (params, query, body) => {
            const res = await ctx.app.inject({
              method: route.method,
              url: urlOf(route, params, query),
              headers: s.headers,
              ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { payload: body as object }),
            });
            expectHandled(`${label} ${urlOf(route, params, query)}`, res);
          },
        ),
        {
          numRuns: 15,
          // Every class on every input, whatever the random draws: past int4 and NUL in each place.
          examples: [
            ...['2147483648', 'x\u0000y'].map(
              (v) =>
                [
                  Array.from({ length: paramCount }, () => v),
                  queryKeys.map((k) => [k, v] as [string, string]),
                  Object.fromEntries(bodyKeys.map((k) => [k, v])),
                ] as [string[], [string, string][], Record<string, unknown>],
            ),
            [[], [['search', '\u0000']], Object.fromEntries(bodyKeys.map((k) => [k, 2147483648]))],
          ],
        },
      );
    },
  );
});

describe('JSON nested deeper than anyone writes', () => {
  // 10,000 levels (~20 KB) once made the statistics endpoint answer 500, then ended the process.
  const deep = `{"x":${'['.repeat(10_000)}${']'.repeat(10_000)}}`;
  const withBody = ROUTES.filter((r) => r.method !== 'GET');

  it.each(withBody.map((r) => [`${r.method} ${r.path}`, r] as const))(
    '%s: answers 400 naming the depth limit, signed in as an administrator',
    async (label, route) => {
      const res = await ctx.app.inject({
        method: route.method,
        url: urlOf(route, [], []),
        headers: { ...s.headers, 'content-type': 'application/json' },
        payload: deep,
      });
      expectHandled(label, res);
      expect(res.statusCode).toBe(400);
      expect(errorMessageOf(res)).toBe(`The JSON body nests deeper than ${MAX_JSON_DEPTH} levels`);
    },
  );
});

describe('multipart uploads, however broken', () => {
  const boundary = '----bvdbBoundary42';
  const part = (body: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n${body}`;
  const broken = fc.oneof(
    fc.constantFrom(
      { type: 'multipart/form-data', body: 'no boundary at all' },
      { type: `multipart/form-data; boundary=${boundary}`, body: '' },
      { type: `multipart/form-data; boundary=${boundary}`, body: part('%PDF-1.4 truncated, never closed') },
      {
        type: `multipart/form-data; boundary=${boundary}`,
        body: `--${boundary}\r\nContent-Disposition: form-data\r\n`,
      },
      { type: `multipart/form-data; boundary=${boundary}`, body: `--${boundary}--garbage` },
      { type: 'multipart/form-data; boundary=', body: part('x') },
      { type: `multipart/form-data; boundary="${'b'.repeat(200)}"`, body: part('x') },
    ),
    fc.record({
      type: fc.constant(`multipart/form-data; boundary=${boundary}`),
      body: fc.string({ maxLength: 200 }).map((t) => part(t).slice(0, Math.max(1, t.length))),
    }),
    fc.record({
      type: fc.constant(`multipart/form-data; boundary=${boundary}`),
      body: fc.string({ maxLength: 200 }).map((t) => `--${boundary}\r\n${t}`),
    }),
  );
  const uploads = ROUTES.filter((r) => /multipart/.test(r.summary));

  it('finds the upload routes', () => {
    expect(uploads.map((r) => `${r.method} ${r.path}`)).toContain('POST /api/references/:id/file');
  });

  it('answers a malformed multipart body with 400 and a message, never 5xx', async () => {
    for (const route of uploads) {
      await fc.assert(
        fc.asyncProperty(broken, async ({ type, body }) => {
          const res = await ctx.app.inject({
            method: route.method,
            url: urlOf(route, ['1'], []),
            headers: { ...s.headers, 'content-type': type },
            payload: body,
          });
          expectHandled(`${route.method} ${route.path} (${type})`, res);
          expect(res.statusCode).toBe(400);
        }),
        { numRuns: 40 },
      );
    }
  });
});

describe('multipart boundaries of any length', () => {
  const writes = ROUTES.filter((r) => r.method !== 'GET' && r.method !== 'DELETE');
  const wellFormed = (boundary: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n` +
    `Content-Type: text/csv\r\n\r\nx\r\n--${boundary}--\r\n`;
  const send = (route: RouteDef, boundary: string) =>
    ctx.app.inject({
      method: route.method,
      url: urlOf(route, ['1'], []),
      headers: { ...s.headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: wellFormed(boundary),
    });
  const refusesMultipart = (res: LightMyRequestResponse) =>
    res.statusCode === 400 && /Unsupported content type/.test(res.body);

  // Found by asking every write route, not from a list: a new upload route is covered the day it lands.
  let uploads: RouteDef[] = [];
  beforeAll(async () => {
    uploads = [];
    for (const route of writes) if (!refusesMultipart(await send(route, 'short'))) uploads.push(route);
  });

  // Routes that state an upload in their summary read the file; the others of a multipart scope
  // (reference create and update) take multipart as a content type and refuse the empty body.
  const readers = ROUTES.filter((r) => /multipart/.test(r.summary)).map((r) => `${r.method} ${r.path}`);

  it('finds every route that takes multipart bodies, the upload routes among them', () => {
    const found = uploads.map((r) => `${r.method} ${r.path}`);
    expect(found).toEqual(expect.arrayContaining(readers));
    expect(readers.length).toBeGreaterThanOrEqual(4);
  });

  it('answers a boundary past 70 characters (RFC 2046) with 400 and a message, never 5xx', async () => {
    for (const route of uploads) {
      const reads = readers.includes(`${route.method} ${route.path}`);
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 71, max: 4000 }),
          fc.constantFrom('b', '-', '9', "'"),
          async (length, char) => {
            const res = await send(route, char.repeat(length));
            expectHandled(`${route.method} ${route.path} (boundary of ${length})`, res);
            expect(res.statusCode).toBe(400);
            if (reads) expect(res.json<{ message: string }>().message).toMatch(/boundary.*70 characters/);
          },
        ),
        {
          numRuns: 10,
          examples: [
            [253, 'b'],
            [257, 'b'],
            [300, '-'],
          ],
        },
      );
    }
  });
});
