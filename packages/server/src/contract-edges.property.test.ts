import * as contract from '@bvdb/contract';
import {
  EstimationJsonBodySchema,
  MenuJsonBodySchema,
  type EstimationJsonBody,
  type RouteDef,
} from '@bvdb/contract';
import type { LightMyRequestResponse } from 'fastify';
import type { z } from 'zod';
import { beforeAll, describe, expect, it } from 'vitest';
import { signInAs, type SignedIn } from './test/sign-in.js';
import { useTestApp } from './test/test-app.js';
import { errorMessageOf } from './test/error-message.js';

/**
 * Every number and every date a caller can send has a domain (issue 43.3): the contract is walked
 * for each numeric and date parameter of every route (query and body, nested ones too) and each is
 * sent the values at and past the edges of what the mathematics and the database accept: 0, ε,
 * 1 − ε, 1, subnormals, 1e308, −1, texts that are not numbers, year 0 and year 10000. Every answer
 * is a success or a 4xx with a message, never a 5xx; a new route or parameter is covered the day it
 * is added to the contract.
 */
const ctx = useTestApp({ demo: true });
let s: SignedIn;
beforeAll(async () => {
  s = await signInAs(ctx.app);
});

const isRoute = (v: unknown): v is RouteDef =>
  typeof v === 'object' && v !== null && 'method' in v && 'path' in v && 'responses' in v;
// As in contract-inputs.property.test.ts: these end the session the other cases use.
const SKIP = new Set(['POST /users/sign_in', 'DELETE /users/sign_out', 'PUT /users']);
const ROUTES = (Object.values(contract) as unknown[])
  .filter(isRoute)
  .filter((r) => !SKIP.has(`${r.method} ${r.path}`));

type Kind = 'number' | 'date';
interface Leaf {
  path: (string | number)[];
  kind: Kind;
}
interface Def {
  type: string;
  format?: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  options?: z.ZodType[];
}
const defOf = (schema: unknown): Def | undefined =>
  (schema as { _zod?: { def?: Def } } | undefined)?._zod?.def;

const isDate = (def: Def | undefined) =>
  def?.type === 'string' && (def.format === 'date' || def.format === 'datetime');

/** The numeric and date leaves of a request schema, with their paths. */
export function leavesOf(schema: unknown, path: (string | number)[] = []): Leaf[] {
  const def = defOf(schema);
  if (!def) return [];
  switch (def.type) {
    case 'number':
      return [{ path, kind: 'number' }];
    case 'string':
      return isDate(def) ? [{ path, kind: 'date' }] : [];
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
      return leavesOf(def.innerType, path);
    case 'pipe':
      return leavesOf(def.in, path);
    case 'object':
      return Object.entries(def.shape ?? {}).flatMap(([k, v]) => leavesOf(v, [...path, k]));
    case 'array':
      return leavesOf(def.element, [...path, 0]);
    case 'union': {
      const options = def.options ?? [];
      if (options.some((o) => isDate(defOf(o)))) return [{ path, kind: 'date' }];
      // A text-or-number cell takes any number: a number leaf only when every option is one.
      const leaves = options.map((o) => leavesOf(o, path));
      return leaves.every((l) => l.length > 0) ? (leaves[0] ?? []) : [];
    }
    default:
      return [];
  }
}

/** Query strings: numbers at and past every edge, and texts that are not numbers. */
const NUMBER_TEXTS = [
  '0',
  '-0',
  '5e-324',
  '1e-320',
  '1e-300',
  '1e-17',
  '1e-16',
  '2.220446049250313e-16',
  '0.9999999999999999',
  '1',
  '1e308',
  '-1',
  'NaN',
  'Infinity',
  '-Infinity',
  'abc',
];
/** JSON numbers: the same edges as numbers (NaN and Infinity have no JSON form). */
const NUMBER_JSON: unknown[] = [0, 5e-324, 1e-320, 1e-300, 1e-17, 1e-16, 1 - 1e-16, 1, 1e308, -1, 'NaN'];
const DATE_TEXTS = [
  '0000-01-01',
  '0000-12-31T23:59:59Z',
  '0001-01-01',
  '9999-12-31',
  '9999-12-31T23:59:59Z',
  '10000-01-01',
  '+010000-01-01',
  '-000001-01-01',
  '2026-02-30',
];

/**
 * Bodies that pass the contract, so an edge value reaches the code behind it (the mathematics, the
 * database); JSON routes whose body the contract types as unknown name their schema here.
 */
const estimationBody: EstimationJsonBody = {
  rows: Array.from({ length: 8 }, (_, i) => i).flatMap((subject) =>
    [1, 2, 3].flatMap((sample) =>
      [1, 2].map((replicate) => ({
        subject: `S${subject}`,
        sample: String(sample),
        replicate,
        value: 5 + subject * 0.3 + sample * 0.05 + replicate * 0.01 + ((subject * sample) % 3) * 0.02,
      })),
    ),
  ),
  options: { alpha: 0.05, bootstrap: { replicates: 100, seed: 1 } },
};
const BODIES: Record<string, { schema?: unknown; example: Record<string, unknown> }> = {
  'POST /api/v1/estimations': { schema: EstimationJsonBodySchema, example: estimationBody },
  'POST /api/v1/menu': {
    schema: MenuJsonBodySchema,
    example: { tests: [{ name: 'Glucose', cva: 2, bias: 1, te: 5 }], probability: 0.95 },
  },
};
/** Query values the route needs to reach its work (the example body is JSON). */
const QUERY_BASE: Record<string, Record<string, string>> = {};

const urlOf = (route: RouteDef, query: Record<string, string>) => {
  const path = route.path.replace(/:[A-Za-z_]+/g, '1').replace(/\*$/, 'x');
  const qs = new URLSearchParams(query).toString();
  return qs ? `${path}?${qs}` : path;
};

const withLeaf = (example: Record<string, unknown>, path: (string | number)[], value: unknown) => {
  const copy = structuredClone(example);
  let at: Record<string | number, unknown> = copy;
  path.forEach((key, i) => {
    if (i === path.length - 1) at[key] = value;
    else {
      const next = at[key];
      at[key] =
        typeof next === 'object' && next !== null ? next : typeof path[i + 1] === 'number' ? [{}] : {};
      at = at[key] as Record<string | number, unknown>;
    }
  });
  return copy;
};

function expectHandled(label: string, res: LightMyRequestResponse) {
  if (res.statusCode >= 500) {
    throw new Error(`${label} answered ${res.statusCode}: ${res.body.slice(0, 300)}`);
  }
  if (res.statusCode >= 400 && res.headers['content-type']?.toString().includes('json')) {
    if (errorMessageOf(res) === null) {
      throw new Error(`${label} answered ${res.statusCode} without a message: ${res.body.slice(0, 300)}`);
    }
  }
}

const labelOf = (r: RouteDef) => `${r.method} ${r.path}`;
const CASES = ROUTES.map((route) => {
  const body = BODIES[labelOf(route)];
  return {
    route,
    query: leavesOf(route.query),
    body: leavesOf(body?.schema ?? route.body),
    example: body?.example,
  };
}).filter((c) => c.query.length > 0 || c.body.length > 0);

describe('every numeric and date parameter of the contract, at and past its edges', () => {
  it('finds the parameters that once answered 500', () => {
    const named = CASES.flatMap((c) => [
      ...c.query.map((l) => `${labelOf(c.route)} ?${l.path.join('.')}`),
      ...c.body.map((l) => `${labelOf(c.route)} ${l.path.join('.')}`),
    ]);
    expect(named).toEqual(
      expect.arrayContaining([
        'POST /api/v1/estimations ?alpha',
        'POST /api/v1/estimations options.alpha',
        'POST /api/v1/menu ?probability',
        'POST /api/v1/menu probability',
        'GET /api/v1/measurands ?as_of',
        'GET /api/v1/measurands/:id/metas ?as_of',
      ]),
    );
  });

  it.each(CASES.map((c) => [labelOf(c.route), c] as const))(
    '%s: 2xx or 4xx with a message, never 5xx',
    async (label, { route, query, body, example }) => {
      const base = QUERY_BASE[label] ?? {};
      const payloadOf = (b: unknown) =>
        route.method === 'GET' || route.method === 'DELETE' ? {} : { payload: b as object };
      for (const leaf of query) {
        const key = String(leaf.path[0]);
        for (const value of leaf.kind === 'number' ? NUMBER_TEXTS : DATE_TEXTS) {
          const url = urlOf(route, { ...base, [key]: value });
          const res = await ctx.app.inject({
            method: route.method,
            url,
            headers: s.headers,
            ...payloadOf(example ?? {}),
          });
          expectHandled(`${label} ${url}`, res);
        }
      }
      for (const leaf of body) {
        for (const value of leaf.kind === 'number' ? NUMBER_JSON : DATE_TEXTS) {
          const res = await ctx.app.inject({
            method: route.method,
            url: urlOf(route, base),
            headers: s.headers,
            ...payloadOf(withLeaf(example ?? {}, leaf.path, value)),
          });
          expectHandled(`${label} ${leaf.path.join('.')}=${JSON.stringify(value)}`, res);
        }
      }
    },
  );
});

describe('the anonymous requests of issue 43.3 answer 400 with a message', () => {
  const csv = [
    'subject,sample,replicate,value',
    ...estimationBody.rows.map((r) => `${r.subject},${r.sample},${r.replicate},${r.value}`),
  ].join('\n');
  it.each(['1e-320', '1e-300', '1e-17', '1e-16', '0', '0.5'])('estimation alpha=%s', async (alpha) => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/estimations?alpha=${alpha}`,
      headers: { 'content-type': 'text/csv' },
      payload: csv,
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json<{ message: string }>().message).toMatch(/alpha must be at least 1e-9 and less than 0\.5/);
  });

  it('estimation alpha=1e-9 (the smallest accepted) answers 200', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/estimations?alpha=1e-9',
      headers: { 'content-type': 'text/csv' },
      payload: csv,
    });
    expect(res.statusCode, res.body).toBe(200);
  });

  it.each(['0.9999999999999999', '0.999999999', '1'])('menu probability=%s', async (probability) => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/menu?probability=${probability}`,
      payload: { tests: [{ name: 'Glucose', cva: 2 }] },
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json<{ message: string }>().message).toMatch(
      /probability must be greater than 0\.5 and at most 0\.999999998/,
    );
  });

  it('menu probability=0.999999998 (the largest accepted: z just under 6) answers 200', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/menu?probability=0.999999998',
      payload: { tests: [{ name: 'Glucose', cva: 2 }] },
    });
    expect(res.statusCode, res.body).toBe(200);
  });

  it.each([
    '/api/v1/measurands?as_of=0000-01-01',
    '/api/v1/measurands/1/metas?as_of=0000-01-01',
    '/api/v1/measurands/1/metas?as_of=0001-01-01T00:00:00%2B01:00',
    '/api/v1/measurands?as_of=10000-01-01',
    '/api/v1/metas?updated_since=0000-06-01T00:00:00Z',
  ])('%s', async (url) => {
    const res = await ctx.app.inject({ url });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json<{ message: string }>().message).toMatch(/0001-01-01.*9999-12-31|as_of must be/);
  });

  it('as_of=0001-01-01 (the first day PostgreSQL and JavaScript share) is read: 404, before the history', async () => {
    const res = await ctx.app.inject({ url: '/api/v1/measurands/1/metas?as_of=0001-01-01' });
    expect(res.statusCode, res.body).toBe(404);
    expect(res.json<{ message: string }>().message).toMatch(/its history starts later/);
  });
});
