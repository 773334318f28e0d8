// The server's import graph, between its files and between its modules (a module is the first
// folder under packages/server/src/modules), and its cycles (decisions 048 and 077). Imports are
// read with the TypeScript compiler's own scanner (`preProcessFile`: every import, export-from,
// dynamic import and `import type`, in code only, never in comments or strings) and resolved with
// the fences' `resolveImport`, so a path written any way lands on the file it names.
// `bvdb/no-import-cycles` (eslint.config.js) refuses an import that closes a cycle of files or of
// modules, so `npm run lint` finds one; module-cycles.test.ts draws the module graph.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { rel, resolveImport, root } from './resolve-import.mjs';

const SERVER = 'packages/server/src';
const MODULES = `${SERVER}/modules`;

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

/** The server files an import of `abs` lands on (repository-relative, without extension). */
function serverImportsOf(abs, text) {
  return ts
    .preProcessFile(text, true, true)
    .importedFiles.map((ref) => resolveImport(abs, ref.fileName).file)
    .filter((f) => f !== undefined && f.startsWith(`${SERVER}/`));
}

/**
 * The cycles between files of the server (its product code, tests left out), in the shape of
 * `moduleCycles`: what `bvdb/no-import-cycles` refuses file by file, drawn for the whole server.
 */
export function fileCycles() {
  const graph = new Map();
  for (const [file, targets] of serverFileGraph()) {
    graph.set(file, new Map(targets.map((t) => [t, [`${file} → ${t}`]])));
  }
  return moduleCycles(graph);
}

let onDisk;
/**
 * File → files it imports, for every source file of the server but the tests (`*.test.ts`, which
 * nothing imports), read from disk once per process (an ESLint run lints them all from it).
 */
function serverFileGraph() {
  if (onDisk) return onDisk;
  onDisk = new Map();
  for (const abs of sourceFiles(path.join(root, SERVER))) {
    if (/\.test\.tsx?$/.test(abs)) continue;
    onDisk.set(rel(abs).replace(/\.tsx?$/, ''), serverImportsOf(abs, readFileSync(abs, 'utf8')));
  }
  return onDisk;
}

/** A path from `start` to `goal` along `next`, as the list of nodes, or null when there is none. */
function pathBetween(start, goal, next) {
  const prev = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift();
    if (v === goal) {
      const found = [];
      for (let w = v; w !== null; w = prev.get(w)) found.unshift(w);
      return found;
    }
    for (const w of next(v)) {
      if (!prev.has(w)) {
        prev.set(w, v);
        queue.push(w);
      }
    }
  }
  return null;
}

const short = (file) => file.replace(`${SERVER}/`, '');

/**
 * An import that closes a cycle: of two (or more) files, or of two (or more) modules. The file
 * being linted takes its imports from the text linted (so an editor, or the fence test's planted
 * line, is judged as written); every other file from disk.
 */
export const noImportCycles = {
  meta: {
    type: 'problem',
    docs: { description: 'No import cycle between files or between modules of the server (decision 077).' },
    schema: [],
  },
  create(context) {
    const file = rel(context.filename).replace(/\.tsx?$/, '');
    if (!file.startsWith(`${SERVER}/`) || /\.test$/.test(file)) return {};
    const graph = serverFileGraph();
    const found = [];
    const add = (node, source) => {
      if (!source || typeof source.value !== 'string') return;
      const target = resolveImport(context.filename, source.value).file;
      if (target && target.startsWith(`${SERVER}/`)) found.push({ node: source, target });
    };
    return {
      ImportDeclaration: (node) => add(node, node.source),
      ExportNamedDeclaration: (node) => node.source && add(node, node.source),
      ExportAllDeclaration: (node) => add(node, node.source),
      ImportExpression: (node) => node.source.type === 'Literal' && add(node, node.source),
      'Program:exit'() {
        const own = found.map((f) => f.target);
        const filesOf = (f) => (f === file ? own : (graph.get(f) ?? []));
        // Module → modules it imports, with this file's imports as linted.
        const moduleEdges = new Map();
        for (const f of new Set([...graph.keys(), file])) {
          const a = moduleOf(f);
          if (!a) continue;
          for (const t of filesOf(f)) {
            const b = moduleOf(t);
            if (!b || b === a) continue;
            if (!moduleEdges.has(a)) moduleEdges.set(a, new Set());
            moduleEdges.get(a).add(b);
          }
        }
        const from = moduleOf(file);
        for (const { node, target } of found) {
          const back = pathBetween(target, file, filesOf);
          if (back) {
            context.report({
              node,
              message: `Import cycle: ${[file, ...back].map(short).join(' → ')}. Move what both need to a third file, or pass it in.`,
            });
            continue;
          }
          const to = moduleOf(target);
          if (!from || !to || to === from) continue;
          const loop = pathBetween(to, from, (m) => moduleEdges.get(m) ?? []);
          if (loop) {
            context.report({
              node,
              message: `Module cycle: ${[from, ...loop].join(' → ')}. A module's face is one way: invert one import through a port, or move the shared piece.`,
            });
          }
        }
      },
    };
  },
};
