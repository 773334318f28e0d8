import { AsyncLocalStorage } from 'node:async_hooks';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance } from 'fastify';

/** What packages/web/src/entry-server.tsx exports (its SSR build lands in packages/web/dist-ssr). */
interface EntryServer {
  setApiFetch(impl: (url: string, init: RequestInit) => Promise<Response>): void;
  renderPage(url: string): Promise<RenderedPage | null>;
}

interface RenderedPage {
  html: string;
  state: string;
  complete: boolean;
}

export type RenderPage = (url: string, visitorIp: string) => Promise<RenderedPage | null>;

/** Beyond this the embedded data would slow the first paint more than fetching it afterwards. */
export const MAX_EMBEDDED_STATE = 256 * 1024;

/**
 * Loads the page renderer, when the web build made one. Its reads go through this app in-process
 * (`inject`: the same routes, validation, caching and per-IP rate limit as a browser's), under the
 * visitor's address, and anonymously: a rendered page is the same for everyone and may be cached.
 */
export async function loadRenderer(app: FastifyInstance, ssrDir: string): Promise<RenderPage | null> {
  const file = path.join(ssrDir, 'entry-server.js');
  if (!fs.existsSync(file)) return null;
  const entry = (await import(pathToFileURL(file).href)) as EntryServer;
  const visitor = new AsyncLocalStorage<string>();
  entry.setApiFetch(async (url, init) => {
    const method = (init.method ?? 'GET').toUpperCase();
    if (method !== 'GET') throw new Error(`server rendering only reads (${method} ${url})`);
    const res = await app.inject({ method: 'GET', url, remoteAddress: visitor.getStore() ?? '127.0.0.1' });
    const noBody = res.statusCode === 204 || res.statusCode === 304;
    return new Response(noBody ? null : res.rawPayload, {
      status: res.statusCode,
      statusText: res.statusMessage,
      headers: { 'content-type': String(res.headers['content-type'] ?? 'application/json') },
    });
  });
  return async (url, visitorIp) => {
    const page = await visitor.run(visitorIp, () => entry.renderPage(url));
    return page && page.state.length <= MAX_EMBEDDED_STATE ? page : null;
  };
}
