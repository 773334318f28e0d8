import fs from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';
import * as contract from '../../contract/src/index.js';

/**
 * The browser's first load without zod (decision 075). A route object of the contract carries its
 * zod schemas, so a page module importing one (`apiCall(getCounters)`) pulled zod (~24 KiB gzip)
 * and its contract's schemas into every first load, although the answers the page starts with come
 * parsed from the server renderer. In the browser build, this plugin replaces such an import by a
 * reference (src/lib/route-ref.ts): method, path and access, with the route object loaded from its
 * contract file when `apiCall` first parses an answer, alongside that request. Only an import whose
 * name the module merely passes on (to `apiCall`, `urlFor`, `uploadFile`) or reads `.path`,
 * `.method`, `.access` or `.produces` of is replaced; a module using a schema (`route.body`,
 * `route.responses`) keeps the route object. The server renderer and the tests are untouched.
 */

const VIRTUAL_ID = 'virtual:bvdb-route-refs';
const RESOLVED_ID = `\0${VIRTUAL_ID}`;
const REF_FIELDS = ['path', 'method', 'access', 'produces'];

/** How the browser's first load gets one export of the contract without loading its file. */
type Substitute =
  | { kind: 'route'; file: string; fields: Record<string, unknown> }
  | { kind: 'value'; source: string }
  | { kind: 're-export'; file: string };

/**
 * What each export of the contract becomes in the browser build: a route object a reference, a
 * plain value (a limit, a list of roles, the version) its literal, a URL helper that only fills its
 * parameters into a template its source, and a function of a file with no runtime imports (route.ts)
 * itself. Anything else (a schema) is left out: a module importing it keeps its import.
 */
export function contractSubstitutes(contractSrc: string): Map<string, Substitute> {
  const definedIn = new Map<string, string>();
  const importFree = new Set<string>();
  for (const file of fs.readdirSync(contractSrc)) {
    if (!file.endsWith('.ts') || file.endsWith('.test.ts')) continue;
    const text = fs.readFileSync(path.join(contractSrc, file), 'utf8');
    for (const m of text.matchAll(/^export const (\w+)\s*=|^export function (\w+)/gm))
      definedIn.set((m[1] ?? m[2])!, path.join(contractSrc, file));
    if (!/^import (?!type )/m.test(text)) importFree.add(path.join(contractSrc, file));
  }
  const substitutes = new Map<string, Substitute>();
  for (const [name, value] of Object.entries(contract)) {
    const file = definedIn.get(name);
    if (!file) continue;
    if (isRoute(value)) {
      const { method, path: routePath, access, produces } = value;
      substitutes.set(name, {
        kind: 'route',
        file,
        fields: { method, path: routePath, access, ...(produces ? { produces } : {}) },
      });
    } else if (typeof value === 'function') {
      if (importFree.has(file)) substitutes.set(name, { kind: 're-export', file });
      else if (isTemplateHelper(value)) substitutes.set(name, { kind: 'value', source: value.toString() });
    } else if (isPlainData(value)) {
      substitutes.set(name, { kind: 'value', source: JSON.stringify(value) });
    }
  }
  return substitutes;
}

function isRoute(
  value: unknown,
): value is { method: string; path: string; access: unknown; produces?: string } {
  return !!value && typeof value === 'object' && 'responses' in value && 'path' in value;
}

/** JSON with nothing else in it (no schema, no class): the same value when written as a literal. */
function isPlainData(value: unknown): boolean {
  if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) return true;
  if (Array.isArray(value)) return value.every(isPlainData);
  if (typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return false;
  return Object.values(value).every(isPlainData);
}

/** `(a, b) => `…${a}…``: an arrow filling only its own parameters into a template, safe to copy. */
function isTemplateHelper(fn: (...args: never[]) => unknown): boolean {
  const m = /^\(([\w\s,]*)\)\s*=>\s*`([^`]*)`$/.exec(fn.toString());
  if (!m) return false;
  const params = new Set(m[1]!.split(',').map((p) => p.trim()));
  return [...m[2]!.matchAll(/\$\{([^}]*)\}/g)].every((x) => params.has(x[1]!.trim()));
}

const IMPORT_FROM_CONTRACT = /import\s*\{([^}]*)\}\s*from\s*(['"])@bvdb\/contract\2;?/g;

/**
 * A module's imports from `@bvdb/contract` that have a substitute (route objects only when the module
 * merely passes them on), taken from the generated module instead. Exported for its test; `null`
 * when nothing changes.
 */
export function rewriteContractImports(
  code: string,
  substituteOf: (name: string) => Substitute['kind'] | undefined,
): string | null {
  let changed = false;
  const out = code.replace(IMPORT_FROM_CONTRACT, (whole: string, list: string, quote: string) => {
    const keep: string[] = [];
    const refs: string[] = [];
    for (const raw of list.split(',')) {
      const spec = raw.trim();
      if (!spec) continue;
      const [imported, local = imported] = spec.split(/\s+as\s+/).map((s) => s.trim()) as [string, string?];
      const rest = code.replace(whole, '');
      const kind = substituteOf(imported);
      if (kind === 'value' || kind === 're-export' || (kind === 'route' && onlyPassedOn(rest, local)))
        refs.push(spec);
      else keep.push(spec);
    }
    if (refs.length === 0) return whole;
    changed = true;
    const kept = keep.length ? `import { ${keep.join(', ')} } from ${quote}@bvdb/contract${quote};` : '';
    return `${kept}import { ${refs.join(', ')} } from ${quote}${VIRTUAL_ID}${quote};`;
  });
  return changed ? out : null;
}

/** Whether every use of `name` hands the route on or reads one of the reference's own fields. */
function onlyPassedOn(code: string, name: string): boolean {
  const uses = new RegExp(
    `(?<![\\w$.])${name.replace(/\$/g, '\\$')}(?![\\w$])\\s*(\\?\\.|\\.|\\[)?\\s*([\\w$]*)`,
    'g',
  );
  for (const m of code.matchAll(uses)) {
    if (m[1] === '[') return false;
    if (m[1] && !REF_FIELDS.includes(m[2] ?? '')) return false;
  }
  return true;
}

export function routeRefsPlugin(root: string): Plugin {
  const webSrc = `${root}/src/`;
  const substitutes = contractSubstitutes(path.resolve(root, '../contract/src'));
  const routeRefModule = `${root}/src/lib/route-ref.ts`;
  return {
    name: 'bvdb-route-refs',
    apply: 'build',
    resolveId(id) {
      return id === VIRTUAL_ID ? RESOLVED_ID : null;
    },
    load(id) {
      if (id !== RESOLVED_ID) return null;
      const lines = [`import { routeRef } from ${JSON.stringify(routeRefModule)};`];
      for (const [name, sub] of substitutes) {
        if (sub.kind === 'route')
          lines.push(
            `export const ${name} = /* @__PURE__ */ routeRef(${JSON.stringify(sub.fields)}, ` +
              `() => import(${JSON.stringify(sub.file)}).then((m) => m.${name}));`,
          );
        else if (sub.kind === 'value') lines.push(`export const ${name} = ${sub.source};`);
        else lines.push(`export { ${name} } from ${JSON.stringify(sub.file)};`);
      }
      return lines.join('\n');
    },
    transform(code, id) {
      if (!id.startsWith(webSrc) || /\.test\.tsx?$/.test(id) || !code.includes('@bvdb/contract')) return null;
      const out = rewriteContractImports(code, (name) => substitutes.get(name)?.kind);
      return out === null ? null : { code: out, map: null };
    },
  };
}
