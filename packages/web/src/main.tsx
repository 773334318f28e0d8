import 'bootstrap/dist/css/bootstrap.min.css';
import './styles.css';
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { wrapFocusInModals } from './app/modal-focus-wrap';
import { routes } from './app/routes';
import { queryClient } from './lib/query-client';

const router = createBrowserRouter(routes);
wrapFocusInModals();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
