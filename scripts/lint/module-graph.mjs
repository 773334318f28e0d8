// The import graph between the server's modules (a module is the first folder under
// packages/server/src/modules) and its cycles (decision 048). Imports are read with the TypeScript
// compiler's own scanner (`preProcessFile`: every import, export-from, dynamic import and
// `import type`, in code only, never in comments or strings) and resolved with the fences'
// `resolveImport`, so a path written any way lands on the file it names.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { resolveImport } from './fences.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const MODULES = 'packages/server/src/modules';

/** The module a repository-relative file belongs to, or null outside the modules folder. */
export function moduleOf(file) {
  return new RegExp(`^${MODULES}/([^/]+)/`).exec(file)?.[1] ?? null;
}

function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(e.name) ? [full] : [];
  });
}

/**
 * Module → modules it imports, each edge with the files that make it (`from → to`), from the
 * product code (tests set up data across modules as they need and are left out).
 * `files` (absolute path → text) replaces the files on disk, for the graph test's own cases.
 */
export function moduleGraph(files) {
  const sources =
    files ??
    new Map(
      sourceFiles(path.join(root, MODULES))
        .filter((f) => !/\.test\.tsx?$/.test(f))
        .map((f) => [f, readFileSync(f, 'utf8')]),
    );
  /** @type {Map<string, Map<string, string[]>>} */
  const graph = new Map();
  for (const [abs, text] of sources) {
    const from = path.relative(root, abs).split(path.sep).join('/');
    const a = moduleOf(from);
    if (!a) continue;
    if (!graph.has(a)) graph.set(a, new Map());
    for (const ref of ts.preProcessFile(text, true, true).importedFiles) {
      const target = resolveImport(abs, ref.fileName);
      const b = target.file ? moduleOf(target.file) : null;
      if (!b || b === a) continue;
      const edges = graph.get(a);
      edges.set(b, [...(edges.get(b) ?? []), `${from} → ${target.file}`]);
    }
  }
  return graph;
}

/**
 * The cycles of the graph, one per strongly connected group of modules (Tarjan), each as the
 * modules of one loop through it with the imports that close it: `a → b → a` and the files.
 */
export function moduleCycles(graph) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const groups = [];
  let next = 0;
  const visit = (v) => {
    index.set(v, next);
    low.set(v, next);
    next += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) === index.get(v)) {
      const group = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1) groups.push(group.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return groups.map((group) => {
    const inGroup = new Set(group);
    // One loop through the group from its first module, by breadth-first search back to it.
    const start = group[0];
    const prev = new Map();
    const queue = [start];
    let end = null;
    while (queue.length > 0 && end === null) {
      const v = queue.shift();
      for (const w of [...(graph.get(v)?.keys() ?? [])].sort()) {
        if (!inGroup.has(w)) continue;
        if (w === start) {
          end = v;
          break;
        }
        if (!prev.has(w)) {
          prev.set(w, v);
          queue.push(w);
        }
      }
    }
    const loop = [start];
    for (let v = end; v !== start; v = prev.get(v)) loop.splice(1, 0, v);
    loop.push(start);
    const imports = loop.slice(1).map((to, i) => graph.get(loop[i]).get(to)[0]);
    return { modules: group, loop: loop.join(' → '), imports };
  });
}
