import * as contract from '@bvdb/contract';
import { matchRoutes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { everyPageData, pageRoutes, visitorData } from './route-table';
import { exportNameOf, routes } from './routes';

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
const announced = pageRoutes.flatMap(({ path, server }) => (server ? [{ path, data: server.data }] : []));

describe('route table', () => {
  it('names only public GET routes of the contract, so a preload is never a write or a personal read', () => {
    for (const path of [...visitorData, ...everyPageData, ...announced.flatMap((p) => p.data)])
      expect(publicReads, path).toContain(shape(path));
  });

  it('fills every API param from a param of its page', () => {
    for (const { path: page, data } of announced)
      for (const path of data)
        for (const [, name] of path.matchAll(/:([A-Za-z_]+)/g)) expect(page, path).toContain(`:${name}`);
  });

  it('routes every announced page to its own page, not the catch-all', () => {
    for (const { path } of announced) {
      const url = path.replace(/:[A-Za-z_]+/g, '1');
      const matched = matchRoutes(routes, url);
      expect(matched?.at(-1)?.route.path, path).not.toBe('*');
    }
  });

  it('names the record of every page about one, so the server answers 404 when it is not there', () => {
    const recordOf: Record<string, string> = {
      '/analytes/:id': 'measurand',
      '/references/:id': 'reference',
      '/bv_specifications/:id': 'dataset',
      '/appraisals/:id': 'appraisal',
      '/applications/menu/:id': 'kept-menu',
    };
    for (const { path, record } of pageRoutes) {
      const prefix = Object.keys(recordOf).find((p) => path === p || path.startsWith(`${p}/`));
      expect(record, path).toBe(prefix ? recordOf[prefix] : undefined);
    }
  });

  it('finds the page each entry names in its file', async () => {
    const files = import.meta.glob<Record<string, unknown>>('./routes/*-page.tsx');
    for (const { page } of pageRoutes) {
      const load = files[`./routes/${page}.tsx`];
      expect(load, page).toBeDefined();
      expect((await load!())[exportNameOf(page)], page).toBeTypeOf('function');
    }
    // Every page module is compiled on first import: seconds on a busy machine, not a timing test.
  }, 60_000);

  it('has a file in app/routes for a page only when the table routes to it', () => {
    const pages = new Set(pageRoutes.map(({ page }) => `./routes/${page}.tsx`));
    for (const file of Object.keys(import.meta.glob('./routes/*.tsx'))) expect(pages, file).toContain(file);
  });
});
