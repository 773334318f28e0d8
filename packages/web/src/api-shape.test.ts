// @vitest-environment node
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { matchRoutes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { pageRoutes } from './app/route-table';
import { paths, recordPagePatterns } from './lib/paths';

// Decision 079: a write invalidates the keys it changes, by name; query keys come from the key
// factory (lib/query-keys.ts); in-app links come from the route table's patterns (lib/paths.ts).
// The source is read as text, so a violation anywhere in src/ fails here, not only in files a test
// happens to render.

const srcRoot = fileURLToPath(new URL('.', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'test' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [path] : [];
  });
}

const sources = sourceFiles(srcRoot).map((path) => ({
  file: relative(srcRoot, path).replaceAll('\\', '/'),
  text: readFileSync(path, 'utf8'),
}));

/** The text of each call's parentheses, nested ones included. */
function callArguments(text: string, name: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(new RegExp(`\\.${name}\\(`, 'g'))) {
    let depth = 1;
    let i = m.index + m[0].length;
    const start = i;
    for (; i < text.length && depth > 0; i++) {
      if (text[i] === '(') depth++;
      else if (text[i] === ')') depth--;
    }
    found.push(text.slice(start, i - 1));
  }
  return found;
}

/** Cache calls that name no key: they touch every query of the app. */
export function bareCacheCalls(text: string): string[] {
  return ['invalidateQueries', 'refetchQueries', 'resetQueries', 'removeQueries'].flatMap((name) =>
    callArguments(text, name)
      .filter((args) => !/\bqueryKey\b/.test(args))
      .map((args) => `${name}(${args})`),
  );
}

/** Query keys written as array literals instead of taken from lib/query-keys.ts. */
export const literalQueryKeys = (text: string): string[] =>
  [...text.matchAll(/\bqueryKey:\s*\[[^\]]*\]/g)].map((m) => m[0]);

/** Template strings that start with an in-app path (`/page…`, not `/api/…`): a link built by hand. */
export const templateLinks = (text: string): string[] =>
  [...text.matchAll(/`\/(?!api\/)[a-z_][^`]*`/g)].map((m) => m[0]);

/** Reads asked of the cache directly (`useQuery(…)`) instead of through a feature's read hook. */
export const directReads = (text: string): string[] =>
  [...text.matchAll(/\b(useQuery|useSuspenseQuery|useQueries)\(/g)].map((m) => m[0]);

/** The query options an api/ file exports that no hook of the same file reads. */
export function queriesWithoutHook(text: string): string[] {
  const queries = [...text.matchAll(/export const (\w+Query)\b/g)].map((m) => m[1]!);
  return queries.filter(
    (q) =>
      !new RegExp(
        `export (?:const|function) use\\w+(?:(?!export )[\\s\\S])*?useQuery\\(\\{?\\s*(?:\\.\\.\\.)?${q}\\b`,
        's',
      ).test(text),
  );
}

/** Plain in-app paths a link or a navigation leads to (not the API's, nor a file the server sends). */
const staticLinks = (text: string): string[] =>
  [...text.matchAll(/(?:\bto=|\bhref=|navigate\()\{?\s*['"](\/(?!api\/)[^'"?#]*)/g)]
    .map((m) => m[1]!)
    .filter((path) => !/\.[a-z]+$/.test(path));

describe('the scanners', () => {
  it('find what they look for and pass what is allowed', () => {
    expect(bareCacheCalls('await queryClient.invalidateQueries();')).toHaveLength(1);
    expect(bareCacheCalls('void client.invalidateQueries({ exact: true });')).toHaveLength(1);
    expect(bareCacheCalls('queryClient.resetQueries()')).toHaveLength(1);
    expect(bareCacheCalls('queryClient.invalidateQueries({ queryKey: queryKeys.users })')).toEqual([]);
    expect(bareCacheCalls('client.invalidateQueries({ queryKey: queryKeys.keptMenu(id) })')).toEqual([]);
    expect(literalQueryKeys("queryOptions({ queryKey: ['dataset', id], queryFn })")).toHaveLength(1);
    expect(literalQueryKeys('queryOptions({ queryKey: queryKeys.dataset(id), queryFn })')).toEqual([]);
    expect(templateLinks('<Link to={`/bv_specifications/${d.id}`}>')).toHaveLength(1);
    expect(templateLinks('void navigate(`/analytes/${id}?matrix=x`)')).toHaveLength(1);
    expect(templateLinks('<a href={`/references/${id}/edit`}>')).toHaveLength(1);
    expect(templateLinks('const url = `/api/v1/datasets/${id}/raw-data/file`;')).toEqual([]);
    expect(templateLinks('<Link to={paths.dataset(d.id)}>')).toEqual([]);
    expect(templateLinks('`${x.subject}${x.sample ? `/${x.sample}` : ""}`')).toEqual([]);
    expect(directReads('const q = useQuery(datasetQuery(id));')).toHaveLength(1);
    expect(directReads('const q = useDataset(id);')).toEqual([]);
    expect(
      queriesWithoutHook('export const datasetQuery = (id: number) => queryOptions({ queryKey, queryFn });'),
    ).toEqual(['datasetQuery']);
    expect(
      queriesWithoutHook(
        'export const datasetQuery = (id: number) => queryOptions({});\nexport const useDataset = (id: number) => useQuery(datasetQuery(id));',
      ),
    ).toEqual([]);
    expect(
      queriesWithoutHook(
        "export const releaseQuery = (v: string) => queryOptions({});\nexport const useRelease = (v: string | null) =>\n  useQuery({ ...releaseQuery(v ?? ''), enabled: v !== null });",
      ),
    ).toEqual([]);
    expect(staticLinks('<Link to="/references/new">, navigate(\'/\'), <a href="/changes.atom">')).toEqual([
      '/references/new',
      '/',
    ]);
  });
});

describe('the app', () => {
  it('invalidates only named keys: no bare invalidateQueries(), refetch, reset or remove', () => {
    const bare = sources.flatMap(({ file, text }) => bareCacheCalls(text).map((call) => `${file}: ${call}`));
    expect(bare).toEqual([]);
  });

  it('reads through a hook of the feature api/ file that fetches it: no useQuery in a page or component', () => {
    const direct = sources
      .filter(({ file }) => !/^features\/[^/]+\/api\//.test(file) && !file.startsWith('lib/'))
      .flatMap(({ file, text }) => directReads(text).map((call) => `${file}: ${call}`));
    expect(direct).toEqual([]);
  });

  it('gives every read of an api/ file its hook, beside its fetcher and query options', () => {
    const apiFiles = sources.filter(({ file }) => /^features\/[^/]+\/api\//.test(file));
    expect(apiFiles.length).toBeGreaterThan(40);
    const missing = apiFiles.flatMap(({ file, text }) =>
      queriesWithoutHook(text).map((q) => `${file}: ${q}`),
    );
    expect(missing).toEqual([]);
  });

  it('takes every query key from lib/query-keys.ts', () => {
    const literal = sources
      .filter(({ file }) => file !== 'lib/query-keys.ts')
      .flatMap(({ file, text }) => literalQueryKeys(text).map((key) => `${file}: ${key}`));
    expect(literal).toEqual([]);
  });

  it('builds no in-app link from a template string: links to a record come from lib/paths.ts', () => {
    const links = sources.flatMap(({ file, text }) =>
      templateLinks(
        // Comments may show a path's shape.
        text.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, ''),
      ).map((link) => `${file}: ${link}`),
    );
    expect(links).toEqual([]);
  });

  it('routes every link builder to the page of its pattern, and every plain in-app link to a page', () => {
    const routes = pageRoutes.map(({ path }) => ({ path }));
    const pageOf = (url: string) => matchRoutes(routes, url)?.at(-1)?.route.path;
    for (const [name, build] of Object.entries(paths)) {
      expect(pageOf(build(7)), name).toBe(recordPagePatterns[name as keyof typeof recordPagePatterns]);
    }
    const plain = sources.flatMap(({ file, text }) => staticLinks(text).map((to) => [file, to] as const));
    expect(plain.length).toBeGreaterThan(20);
    for (const [file, to] of plain) expect(pageOf(to), `${file}: ${to}`).not.toBe('*');
  });
});
