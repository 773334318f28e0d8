import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- the graph script is plain JavaScript beside the lint fences, without types
import * as graphScript from '../../../scripts/lint/module-graph.mjs';

// No module cycles (decision 048): a module is the first folder under src/modules; the graph is
// read from the product code's imports (type-only imports too), resolved to the files they name.
const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const at = (rel: string) => path.join(repoRoot, 'packages/server/src/modules', rel);

type Cycle = { modules: string[]; loop: string; imports: string[] };
type Graph = Map<string, Map<string, string[]>>;
const { moduleCycles, moduleGraph } = graphScript as unknown as {
  moduleGraph: (files?: Map<string, string>) => Graph;
  moduleCycles: (graph: Graph) => Cycle[];
};
const cyclesOf = (files?: Map<string, string>) => moduleCycles(moduleGraph(files));

describe('the server modules import one another without cycles', () => {
  it('has no cycle between modules', () => {
    const cycles = cyclesOf();
    // On failure the message names each loop and the imports that close it.
    expect(cycles.map((c) => `${c.loop}\n  ${c.imports.join('\n  ')}`)).toEqual([]);
  });

  it('finds the graph of the real code (datasets reach lookups, appraisals reach datasets)', () => {
    const graph = moduleGraph();
    expect(graph.get('datasets')?.has('lookups')).toBe(true);
    expect(graph.get('appraisals')?.has('datasets')).toBe(true);
    expect(graph.get('backup')?.has('recompute-queue')).toBe(true);
  });

  it('finds a two-module cycle, a longer one through any path spelling, and type-only imports', () => {
    const files = new Map([
      [at('a/a.service.ts'), "import { b } from '../b/b.service.js';"],
      [at('b/b.service.ts'), "import type { A } from '../../modules/a/a.service.js';"],
      [at('c/c.routes.ts'), "export { d } from '../d/deep/d.service.js';"],
      [at('d/deep/d.service.ts'), "const e = await import('../../e/e.service.js');"],
      [
        at('e/e.service.ts'),
        "// import '../c/c.routes.js' in a comment is no import\nimport '../c/c.routes.js';",
      ],
      [at('f/f.service.ts'), "import { a } from '../a/a.service.js'; // f → a only: no cycle"],
    ]);
    const cycles = cyclesOf(files);
    expect(cycles.map((c) => c.modules)).toEqual([
      ['a', 'b'],
      ['c', 'd', 'e'],
    ]);
    expect(cycles[0]!.loop).toBe('a → b → a');
    expect(cycles[1]!.loop).toBe('c → d → e → c');
    expect(cycles[0]!.imports[0]).toMatch(/modules\/a\/a\.service\.ts → .*modules\/b\/b\.service$/);
  });

  it('does not count imports inside one module or of shared folders', () => {
    const files = new Map([
      [at('a/x.service.ts'), "import { y } from './y.repository.js'; import { z } from '../../lib/z.js';"],
      [at('a/y.repository.ts'), "import { x } from './x.service.js';"],
    ]);
    expect(cyclesOf(files)).toEqual([]);
  });
});
