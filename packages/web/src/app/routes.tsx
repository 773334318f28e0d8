import { lazy, type ComponentType } from 'react';
import { useRoutes, type RouteObject } from 'react-router';
import { Layout } from './layout';
import { pageRoutes } from './route-table';

type PageModule = Record<string, ComponentType>;

// The not-found page comes with the app's own code (the answer to any mistyped link); every other
// page, the home page too, is its own chunk: the server announces a page's chunks in its HTML
// (page-preloads.json), so a first visit fetches them at once, and no page carries another's code
// (issue 18: the measurand page's first load within 150 KB).
const bundledPages = import.meta.glob<PageModule>(['./routes/not-found-page.tsx'], {
  eager: true,
});
const lazyPages = import.meta.glob<PageModule>(['./routes/*-page.tsx', '!./routes/not-found-page.tsx']);

/** home-page → HomePage: the name a page file exports its page under. */
export const exportNameOf = (page: string) =>
  page.replace(/(^|-)([a-z])/g, (_, _dash: string, letter: string) => letter.toUpperCase());

function pageComponent(page: string): ComponentType {
  const file = `./routes/${page}.tsx`;
  const name = exportNameOf(page);
  const bundled = bundledPages[file];
  if (bundled) return bundled[name]!;
  const load = lazyPages[file];
  if (!load) throw new Error(`route table: no page file ${file}`);
  return lazy(async () => ({ default: (await load())[name]! }));
}

export const routes: RouteObject[] = [
  {
    element: <Layout />,
    children: pageRoutes.map(({ path, page }) => {
      const Page = pageComponent(page);
      return path === '/'
        ? { index: true, element: <Page /> }
        : { path: path.replace(/^\//, ''), element: <Page /> };
    }),
  },
];

/**
 * The pages in the declarative router (`<BrowserRouter>` in the browser, `<StaticRouter>` on the
 * server): no page uses loaders or actions, and the data router's code (createBrowserRouter, about
 * 12 KB gzipped) stayed out of every first load (issue 18).
 */
export function AppRoutes() {
  return useRoutes(routes);
}
