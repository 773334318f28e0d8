import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendCachedEntry, syncGeneration } from '../lib/cached-json.js';
import { offerFastRead } from '../lib/fast-reads.js';
import { DATA_SCOPES, plainBody } from '../lib/response-cache.js';
import { seesUnpublished } from './contract-routes.js';
import { loadPagePreloads, type PageHints } from './page-preloads.js';
import { pageRecordExists, type PageRecordLookups } from './page-records.js';
import { loadRenderer, type RenderPage } from './ssr.js';
import { registerStaticFiles } from './static-files.js';
import { varyOn } from '../lib/vary.js';

export const DEFAULT_WEB_DIST = fileURLToPath(new URL('../../../web/dist', import.meta.url));

const SERVER_PREFIXES = ['/api', '/autocomplete', '/export_by_', '/healthz', '/readyz'];
const ROOT = '<div id="root"></div>';

/**
 * The query parameters the web app's pages read (references, search results, meta-analysis jobs,
 * the summary table's level, probability, CVA and matrices, issue 32, and its population, issue 47.3).
 */
const PAGE_QUERY_PARAMETERS = [
  'consolidated',
  'cva',
  'facet.age',
  'facet.disease',
  'facet.ethnicity',
  'facet.interval',
  'facet.matrix',
  'facet.method',
  'facet.sex',
  'facet.state',
  'level',
  'matrices',
  'meta',
  'page',
  'probability',
  'query',
  'search',
];

/** The renderer has no page for the URL: the shell is sent (not an error). */
const NOT_RENDERED = new Error('not rendered');

/** A page's URL with only the parameters a page reads, in a fixed order (the rest change nothing). */
export function pageUrlOf(url: string): string {
  const [path = '/', query = ''] = url.split('?', 2);
  const given = new URLSearchParams(query);
  const kept = new URLSearchParams();
  for (const name of PAGE_QUERY_PARAMETERS) {
    const value = given.get(name);
    if (value !== null) kept.set(name, value);
  }
  const search = kept.toString();
  return search ? `${path}?${search}` : path;
}

/**
 * Serves the built React app: its files from memory (static-files.ts), hashed assets cached for a year, every other GET that is not an API
 * path answered with the app's HTML so deep links such as /references/12 load the app. Public pages
 * come rendered with their data for anonymous visitors (`dist-ssr`, see ssr.ts), kept per data
 * generation like the API's answers; the rest get the shell with preload hints.
 */
/** What the web app needs of the modules, handed in by app.ts (ports, decision 077). */
export interface WebAppPorts {
  /** The name of the cookie that carries a session (the auth module's). */
  sessionCookie: string;
  /** Whether a record a page is about exists (the records' modules). */
  pageRecords: PageRecordLookups;
}

export async function registerWebApp(app: FastifyInstance, ports: WebAppPorts): Promise<void> {
  const dist = path.resolve(app.deps.config.WEB_DIST ?? DEFAULT_WEB_DIST);
  const indexFile = path.join(dist, 'index.html');
  const hasApp = fs.existsSync(indexFile);
  if (hasApp) registerStaticFiles(app, dist);
  // Read once: the shell changes only with a new build, which means a new process.
  const shell = hasApp ? fs.readFileSync(indexFile, 'utf8') : '';
  const hintsFor = loadPagePreloads(dist);
  const withHead = (links: string) => shell.replace('</head>', `${links}</head>`);
  const render = hasApp && shell.includes(ROOT) ? await loadRenderer(app, `${dist}-ssr`) : null;

  const sendFresh = (reply: FastifyReply, html: string) =>
    // A signed-in visitor gets another page from the same URL.
    varyOn(reply.type('text/html; charset=utf-8').header('Cache-Control', 'no-cache'), 'Cookie').send(html);

  /**
   * The page rendered with its data: kept, or rendered now (once, however many ask at the same
   * time); null sends the shell instead. Keyed and rendered by its path and the query parameters a
   * page reads, so an unknown parameter cannot force a fresh render.
   */
  const renderedPage = async (request: FastifyRequest, hints: PageHints, renderPage: RenderPage) => {
    const { cache } = app.deps;
    await syncGeneration(request);
    const url = pageUrlOf(request.url);
    const key = `page:${url}`;
    const built = await cache
      .getOrBuild(key, DATA_SCOPES, async () => {
        const page = await renderPage(url, request.ip);
        if (!page) throw NOT_RENDERED;
        const html = withHead(hints.serverRendered).replace(
          ROOT,
          `<div id="root">${page.html}</div>` +
            `<script id="bvdb-state" type="application/json">${page.state}</script>` +
            `<script id="bvdb-scripts" type="application/json">${JSON.stringify(hints.serverRenderedScripts)}</script>`,
        );
        // A page whose reads failed is sent once, not kept.
        return { body: html, keep: page.complete };
      })
      .catch((err: unknown) => {
        if (err !== NOT_RENDERED) request.log.warn({ err }, 'server rendering failed; sending the shell');
        return null;
      });
    if (!built) return null;
    if (!built.kept) return { html: String(plainBody(built.entry)) };
    offerFastRead(request, cache, key, built.entry);
    return { entry: built.entry };
  };

  /** Whether the URL is a page of the app and, for a record's page, the record is there to see. */
  const pageExists = async (request: FastifyRequest, hints: PageHints) =>
    hints.known &&
    (!hints.record ||
      (await pageRecordExists(
        ports.pageRecords,
        app.deps.database.db,
        hints.record.kind,
        hints.record.id,
        seesUnpublished(request),
      )));

  const sendPage = async (request: FastifyRequest, reply: FastifyReply, urlPath: string) => {
    const hints = hintsFor(urlPath);
    // No such page, or no such record: the app's own "Page not found" (its catch-all route, or the
    // record page on the API's 404), with a 404 that link checkers and probes can read. Sent fresh,
    // never kept, so neither the page cache nor the fast read path (which replays only kept pages)
    // can answer it with a 200, and a record deleted since drops its kept page with the generation.
    if (!(await pageExists(request, hints)))
      return sendFresh(reply.status(404), withHead(hints.clientRendered));
    const rendered =
      render && hints.ssr && !request.cookies[ports.sessionCookie]
        ? await renderedPage(request, hints, render)
        : null;
    if (rendered?.entry)
      return sendCachedEntry(request, reply, rendered.entry, {
        type: 'text/html; charset=utf-8',
        compress: true,
        cacheControl: 'no-cache',
        vary: 'Accept-Encoding, Cookie',
      });
    return sendFresh(reply, rendered?.html ?? withHead(hints.clientRendered));
  };

  // Pages come through here, not through a route: counted as cheap reads (plugins/rate-limits.ts).
  app.setNotFoundHandler({ preHandler: app.rateLimit() }, async (request, reply) => {
    const urlPath = request.url.split('?')[0] ?? '/';
    const isServerPath = SERVER_PREFIXES.some((p) => urlPath.startsWith(p));
    const accepts = request.headers.accept ?? '';
    if (
      (request.method === 'GET' || request.method === 'HEAD') &&
      !isServerPath &&
      hasApp &&
      (accepts.includes('text/html') || accepts === '' || accepts.includes('*/*'))
    ) {
      return sendPage(request, reply, urlPath);
    }
    return reply.status(404).send({
      error: 'Not Found',
      message: `Route ${request.method} ${urlPath} not found`,
      statusCode: 404,
    });
  });
}
