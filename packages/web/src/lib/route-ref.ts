import type { Access, HttpMethod, RouteDef } from '@bvdb/contract';

/**
 * A contract route as the browser's first load knows it (decision 075): its method, path and access,
 * without its zod schemas, which come with `load()` when an answer is first parsed. The browser build
 * puts these in place of the route objects a page module only hands to `apiCall`, `urlFor` or
 * `uploadFile` (build/route-refs-plugin.ts), so zod and the contract's schemas leave the first load.
 * The server renderer, the tests and `vite dev` use the route objects themselves.
 */
export interface RouteRef {
  method: HttpMethod;
  path: string;
  access: Access;
  produces?: string;
  load: () => Promise<RouteDef>;
}

/** Used by the generated module of build/route-refs-plugin.ts. */
export function routeRef(fields: Omit<RouteRef, 'load'>, load: () => Promise<RouteDef>): RouteRef {
  return { ...fields, load };
}

/** The route with its schemas: itself, or, for a reference, the contract's object, loaded once. */
export function withSchemas<D extends RouteDef>(def: D): Promise<D> {
  const load = (def as Partial<RouteRef>).load;
  return load ? (load() as Promise<D>) : Promise.resolve(def);
}
