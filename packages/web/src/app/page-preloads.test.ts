import * as contract from '@bvdb/contract';
import { matchRoutes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { everyPageData, pagePreloads, visitorData } from './page-preloads';
import { routes } from './routes';

// Param names differ between page and API (`:id` vs `:analyte_id`); the shape is what must agree.
const shape = (path: string) => path.replace(/:[A-Za-z_]+/g, ':param');
const isRoute = (v: unknown): v is contract.RouteDef =>
  typeof v === 'object' && v !== null && 'method' in v && 'path' in v;
const publicReads = new Set(
  Object.values(contract as Record<string, unknown>)
    .filter(isRoute)
    .filter((def) => def.method === 'GET' && def.access === 'public')
    .map((def) => shape(def.path)),
);

describe('page preloads', () => {
  it('names only public GET routes of the contract, so a preload is never a write or a personal read', () => {
    for (const path of [...visitorData, ...everyPageData, ...pagePreloads.flatMap((p) => p.data)])
      expect(publicReads, path).toContain(shape(path));
  });

  it('fills every API param from a param of its page', () => {
    for (const { page, data } of pagePreloads)
      for (const path of data)
        for (const [, name] of path.matchAll(/:([A-Za-z_]+)/g)) expect(page, path).toContain(`:${name}`);
  });

  it('describes pages the app has, not the catch-all', () => {
    for (const { page } of pagePreloads) {
      const url = page.replace(/:[A-Za-z_]+/g, '1');
      const matched = matchRoutes(routes, url);
      expect(matched?.at(-1)?.route.path, page).not.toBe('*');
    }
  });
});
