/**
 * Server-side rendering of the public pages: the server (packages/server/src/plugins/ssr.ts) imports
 * the SSR build of this file, so a first visit paints the page's content before any script runs.
 *
 * The data comes from the same queries the components declare: a render registers them in the
 * cache, we run the ones that belong on a shared page (not those marked `meta: { ssr: false }`,
 * such as the visitor's session and CSRF token) and render again, until nothing new is asked for.
 * The client (app/start.tsx) hydrates the cache from the embedded state, so it asks for nothing twice.
 */
import { dehydrate, QueryClient, QueryClientProvider, type Query } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { prerender } from 'react-dom/static';
import { StaticRouter } from 'react-router';
import { AppRoutes } from './app/routes';
import { setApiFetch } from './lib/api-client';

export { setApiFetch };

const MAX_PASSES = 4;

export interface RenderedPage {
  /** The markup that goes inside `<div id="root">`. */
  html: string;
  /** The dehydrated query cache, as JSON safe to put inside a `<script>` element. */
  state: string;
  /** False when a read failed (the page shows it loading; the browser will ask again): do not keep it. */
  complete: boolean;
}

function wantsServerData(query: Query): boolean {
  const { enabled } = query.options as { enabled?: boolean | ((q: Query) => boolean) };
  const on = typeof enabled === 'function' ? enabled(query) : enabled !== false;
  return on && query.meta?.ssr !== false && query.state.status === 'pending';
}

async function renderOnce(url: string, queryClient: QueryClient): Promise<string> {
  const { prelude } = await prerender(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <StaticRouter location={url}>
          <AppRoutes />
        </StaticRouter>
      </QueryClientProvider>
    </StrictMode>,
    // Every boundary inline: an outlined one is revealed by an inline script, which the CSP forbids.
    { progressiveChunkSize: Number.POSITIVE_INFINITY },
  );
  return new Response(prelude).text();
}

/** `<` and the JS line separators escaped: the JSON cannot close the script element it sits in. */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** The page at `url` (path and query) rendered with its data, or null when it is a redirect. */
export async function renderPage(url: string): Promise<RenderedPage | null> {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false, staleTime: Infinity, gcTime: Infinity } },
  });
  const tried = new Set<string>();
  let complete = true;
  let html: string | null = null;
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    html = await renderOnce(url, queryClient);
    const todo = queryClient
      .getQueryCache()
      .getAll()
      .filter((q) => !tried.has(q.queryHash) && wantsServerData(q));
    if (todo.length === 0) break;
    for (const q of todo) tried.add(q.queryHash);
    // A failed read stays out of the state: the browser asks again and shows the page's error text.
    await Promise.all(
      todo.map((q) =>
        q.fetch().catch(() => {
          complete = false;
        }),
      ),
    );
  }
  const state = dehydrate(queryClient);
  queryClient.clear();
  return { html: html ?? '', state: scriptSafeJson(state), complete };
}
