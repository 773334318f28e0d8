// @vitest-environment node
import path from 'node:path';
import * as contract from '@bvdb/contract';
import { describe, expect, it } from 'vitest';
import { apiCall, setApiFetch } from '../src/lib/api-client';
import { routeRef } from '../src/lib/route-ref';
import { contractSubstitutes, rewriteContractImports } from './route-refs-plugin';

const substitutes = contractSubstitutes(path.resolve(import.meta.dirname, '../../contract/src'));
const kindOf = (name: string) => substitutes.get(name)?.kind;

describe('the browser build takes route objects out of the first load (decision 075)', () => {
  it('imports a route a module only hands to apiCall, and plain values, from the references', () => {
    const code = [
      `import { getCounters, V1_MAX_LIMIT, v1ListMetas } from "@bvdb/contract";`,
      `export const q = () => apiCall(getCounters, { query: { limit: V1_MAX_LIMIT } });`,
      `export const u = urlFor(v1ListMetas) + v1ListMetas.path;`,
    ].join('\n');
    const out = rewriteContractImports(code, kindOf)!;
    expect(out).toContain(
      `import { getCounters, V1_MAX_LIMIT, v1ListMetas } from "virtual:bvdb-route-refs";`,
    );
    expect(out).not.toContain('@bvdb/contract');
  });

  it('keeps the route object where the module reads a schema, and what has no substitute', () => {
    const code = [
      `import { createDataset, DatasetWriteSchema, getCounters } from '@bvdb/contract';`,
      `const resolver = zodResolver(createDataset.body);`,
      `const other = getCounters['responses'];`,
      `DatasetWriteSchema.parse({});`,
    ].join('\n');
    expect(rewriteContractImports(code, kindOf)).toBeNull();
  });

  it('gives every route its method, path and access, and every value its own', () => {
    for (const [name, sub] of substitutes) {
      const value = (contract as Record<string, unknown>)[name] as Record<string, unknown>;
      if (sub.kind === 'route') {
        expect(sub.fields).toMatchObject({ method: value.method, path: value.path, access: value.access });
      } else if (sub.kind === 'value') {
        // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the build writes this source
        const copied = (new Function(`return ${sub.source};`) as () => unknown)();
        if (typeof copied === 'function')
          expect((copied as (x: number) => string)(7)).toBe((value as unknown as (x: number) => string)(7));
        else expect(copied).toEqual(value);
      }
    }
    expect(kindOf('getCounters')).toBe('route');
    expect(kindOf('V1_MAX_LIMIT')).toBe('value');
    expect(kindOf('exportAnalyteUrl')).toBe('value');
    expect(kindOf('admits')).toBe('re-export');
    expect(kindOf('IdSchema')).toBeUndefined();
  });

  it('parses an answer through a reference with the route’s own schema', async () => {
    const def = contract.getCounters;
    const ref = routeRef({ method: def.method, path: def.path, access: def.access }, () =>
      Promise.resolve(def),
    );
    const body = {
      meta_data: { total_bv_specifications: 3, total_metas: 2, total_references: 1 },
    };
    setApiFetch(() => Promise.resolve(new Response(JSON.stringify(body), { status: 200 })));
    const viaRef = await apiCall(ref as unknown as typeof def);
    const direct = await apiCall(def);
    expect(viaRef).toEqual(direct);
    setApiFetch(() => Promise.resolve(new Response('{"meta_data":{}}', { status: 200 })));
    await expect(apiCall(ref as unknown as typeof def)).rejects.toThrow();
  });
});
