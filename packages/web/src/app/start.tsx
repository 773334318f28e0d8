/** Starts the app: hydrates a server-rendered page, or renders one from scratch (see main.tsx). */
import { hydrate, QueryClientProvider, type DehydratedState } from '@tanstack/react-query';
import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { wrapFocusInModals } from './modal-focus-wrap';
import { AppRoutes } from './routes';
import { queryClient } from '../lib/query-client';
import { markAppHydrated } from '../lib/use-hydrated';

// Data the server rendered the page with (packages/server/src/plugins/ssr.ts): used, not re-fetched.
const serverState = document.getElementById('bvdb-state');
if (serverState?.textContent) {
  const state = JSON.parse(serverState.textContent) as DehydratedState;
  // The server keeps a rendered page only while the data it read is unchanged (decision 021), so
  // what it embedded is current now, however long ago the page was rendered: fresh for the
  // queries' staleTime from now on, not asked for again the moment the page hydrates.
  const now = Date.now();
  for (const query of state.queries) query.state.dataUpdatedAt = now;
  hydrate(queryClient, state);
}

wrapFocusInModals();

const app = (
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </QueryClientProvider>
  </StrictMode>
);
const container = document.getElementById('root')!;
if (container.firstElementChild) {
  // A transition lets React hydrate in slices, so the page stays responsive while it does.
  startTransition(() => {
    hydrateRoot(container, app);
  });
} else {
  // Nothing to match: what depends on the visitor shows from the first render.
  markAppHydrated();
  createRoot(container).render(app);
}
