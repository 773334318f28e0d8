import fs from 'node:fs';
import path from 'node:path';
import { buildPath } from '@bvdb/contract';

/** dist/page-preloads.json, written by the web build (packages/web/build/page-preloads-plugin.ts). */
interface PagePreloadManifest {
  visitorData: string[];
  everyPageData: string[];
  everyPageScripts: string[];
  pages: { page: string; scripts: string[]; data: string[]; ssr: boolean }[];
  /** Every page of the app, the catch-all left out (absent from builds before 1.0.0: all known). */
  known?: { page: string; record?: PageRecord }[];
}

/** The kinds of record a page can be about (packages/web/src/app/route-table.ts). */
export type PageRecord = 'measurand' | 'reference' | 'dataset' | 'appraisal' | 'kept-menu';

export interface PageHints {
  /** False when no page of the app has this path: the app shows its "Page not found" (a 404). */
  known: boolean;
  /** The record the page is about, by the page's `:id` as written in the URL; null for other pages. */
  record: { kind: PageRecord; id: string } | null;
  /** Whether the page is one the server renders for anonymous visitors. */
  ssr: boolean;
  /** `<link>` tags for a page the browser renders itself: its code and all its API answers. */
  clientRendered: string;
  /** `<link>` tags for a server-rendered page: the per-visitor answers only. */
  serverRendered: string;
  /**
   * The code of a server-rendered page, which the page fetches itself once painted (main.tsx):
   * the text is readable at once instead of waiting behind the scripts for bandwidth.
   */
  serverRenderedScripts: string[];
}

/** The captured params when `pattern` (e.g. /analytes/:id) matches `urlPath`, else null. */
export function matchPage(pattern: string, urlPath: string): Record<string, string> | null {
  if (pattern === '/') return urlPath === '/' || urlPath === '' ? {} : null;
  const want = pattern.split('/');
  const have = urlPath.replace(/\/+$/, '').split('/');
  if (want.length !== have.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i]!;
    const h = have[i]!;
    if (w.startsWith(':')) {
      if (!h) return null;
      try {
        params[w.slice(1)] = decodeURIComponent(h);
      } catch {
        return null;
      }
    } else if (w !== h) return null;
  }
  return params;
}

/** The API path with the page's params, or null when the page lacks one. */
function fill(apiPath: string, params: Record<string, string>): string | null {
  try {
    return buildPath(apiPath, params);
  } catch {
    return null;
  }
}

const SITE_FEED =
  '<link rel="alternate" type="application/atom+xml" title="Changes to the BV database" href="/changes.atom">';

/**
 * The Atom feeds a page offers to feed readers (issue 30): the whole database's changes on every
 * page, and a measurand's own on its pages, so a browser or reader finds them from the page's URL.
 */
export function feedLinks(record: PageHints['record']): string {
  if (record?.kind !== 'measurand') return SITE_FEED;
  const href = `/analytes/${encodeURIComponent(record.id)}/changes.atom`;
  return `${SITE_FEED}<link rel="alternate" type="application/atom+xml" title="Changes to this measurand" href="${href}">`;
}

/** No build, or a build without the manifest: no hints, nothing rendered on the server. */
const NO_HINTS: PageHints = {
  known: true,
  record: null,
  ssr: false,
  clientRendered: '',
  serverRendered: '',
  serverRenderedScripts: [],
};

/**
 * The `<link>` tags for a page: its code as modulepreload and its API answers as fetch preloads
 * (no custom headers on the client's GETs, so the browser hands the preloaded answer to the app's
 * fetch instead of asking again).
 */
export function loadPagePreloads(dist: string): (urlPath: string) => PageHints {
  const file = path.join(dist, 'page-preloads.json');
  if (!fs.existsSync(file)) return () => NO_HINTS;
  const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as PagePreloadManifest;
  // encodeURIComponent leaves no quote, < or & in a param, so the hrefs are safe in an attribute.
  const data = (href: string) => `<link rel="preload" as="fetch" crossorigin href="${href}">`;
  const script = (href: string) => `<link rel="modulepreload" crossorigin href="${href}">`;
  const visitor = manifest.visitorData.map(data).join('');
  const common =
    visitor + manifest.everyPageData.map(data).join('') + manifest.everyPageScripts.map(script).join('');
  const recordOf = (urlPath: string): Pick<PageHints, 'known' | 'record'> => {
    if (!manifest.known) return { known: true, record: null };
    for (const { page, record } of manifest.known) {
      const params = matchPage(page, urlPath);
      if (!params) continue;
      return {
        known: true,
        record: record && params.id !== undefined ? { kind: record, id: params.id } : null,
      };
    }
    return { known: false, record: null };
  };
  return (urlPath) => {
    const { known, record } = recordOf(urlPath);
    const feeds = feedLinks(record);
    // A page without preloads of its own (or no page at all): the shell's common ones only.
    const bare = {
      known,
      record,
      ssr: false,
      clientRendered: feeds + common,
      serverRendered: feeds + visitor,
      serverRenderedScripts: [],
    };
    if (!known) return bare;
    for (const { page, scripts, data: apiPaths, ssr } of manifest.pages) {
      const params = matchPage(page, urlPath);
      if (!params) continue;
      const hrefs = apiPaths.map((p) => fill(p, params)).filter((p): p is string => p !== null);
      const code = scripts.map(script).join('');
      return {
        known,
        record,
        ssr,
        clientRendered: feeds + common + hrefs.map(data).join('') + code,
        serverRendered: feeds + visitor,
        serverRenderedScripts: [...manifest.everyPageScripts, ...scripts],
      };
    }
    return bare;
  };
}
