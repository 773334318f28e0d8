// Where an import lands: the file it names relative to the repository (without extension), or the
// package it names. Shared by the fences (fences.mjs) and the import graph (module-graph.mjs).
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const WORKSPACES = { '@bvdb/domain': 'packages/domain/src', '@bvdb/contract': 'packages/contract/src' };

/** A path relative to the repository, with forward slashes. */
export const rel = (file) => path.relative(root, file).split(path.sep).join('/');

/**
 * The file an import names, relative to the repository (without extension), or a package name.
 * `relative` says the import was written as a relative path (`./`, `../`).
 */
export function resolveImport(fromFile, spec) {
  if (spec.startsWith('.')) {
    const abs = path.resolve(path.dirname(fromFile), spec);
    return { file: rel(abs).replace(/\.(js|jsx|ts|tsx|mjs)$/, ''), relative: true };
  }
  for (const [name, dir] of Object.entries(WORKSPACES)) {
    if (spec === name) return { file: `${dir}/index`, workspace: name };
    if (spec.startsWith(`${name}/`))
      return { file: `${dir}/${spec.slice(name.length + 1)}`, workspace: name };
  }
  if (spec === '@bvdb/server' || spec.startsWith('@bvdb/server/'))
    return { file: 'packages/server/src/index' };
  if (spec === '@bvdb/web' || spec.startsWith('@bvdb/web/')) return { file: 'packages/web/src/index' };
  return { pkg: spec };
}
