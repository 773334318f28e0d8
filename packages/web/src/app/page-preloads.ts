/**
 * What a first visit to each public page will need, so the server can announce it in the HTML
 * (`<link rel="modulepreload">` for the page's code, `<link rel="preload" as="fetch">` for its API
 * answers) and the browser fetches it all at once instead of one round trip after another.
 *
 * Read at build time by `build/page-preloads-plugin.ts`, which writes `dist/page-preloads.json`;
 * kept free of imports so the build can load it. `page-preloads.test.ts` checks every data path
 * against the contract and that the pages fetch exactly these on first load.
 * Params in `data` take the value of the page param of the same name.
 */
export interface PagePreload {
  /** A route of app/routes.tsx. */
  page: string;
  /** Source modules (from packages/web) whose chunks the page renders. */
  modules: string[];
  /** API paths the page fetches on first render, without a query string. */
  data: string[];
  /**
   * Rendered on the server for anonymous visitors (packages/server/src/plugins/ssr.ts): the page
   * paints with its data before any script runs. Off for pages whose first answer is too large to
   * embed in the HTML (the all-datasets list), for CMS pages (their HTML is sanitised in the
   * browser) and for the calculators: a form that shows before it works would drop what was typed.
   */
  ssr: boolean;
}

/** Fetched by the layout on every page, per visitor: never part of a server-rendered page. */
export const visitorData = ['/api/session'];
/** Fetched by the layout on every page, the same for everyone. */
export const everyPageData = ['/api/site'];

export const pagePreloads: PagePreload[] = [
  { page: '/', modules: [], data: ['/api/meta'], ssr: true },
  {
    page: '/analytes/:id',
    modules: ['src/features/analytes/analyte-page.tsx'],
    data: [
      '/api/analytes/:id',
      '/api/analyte_specifications/:id',
      '/api/meta_calculations/meta_by_analyte/:id',
    ],
    ssr: true,
  },
  { page: '/search', modules: ['src/features/search/search-results-page.tsx'], data: [], ssr: true },
  { page: '/matrices', modules: ['src/features/matrices/matrices-page.tsx'], data: [], ssr: true },
  { page: '/references', modules: ['src/features/references/references-page.tsx'], data: [], ssr: true },
  { page: '/references/:id', modules: ['src/features/references/reference-page.tsx'], data: [], ssr: true },
  {
    page: '/bv_specifications',
    modules: ['src/features/specifications/specifications-page.tsx'],
    data: [],
    ssr: false,
  },
  {
    page: '/bv_specifications/measurand',
    modules: ['src/features/specifications/by-measurand-page.tsx'],
    data: [],
    ssr: true,
  },
  {
    page: '/bv_specifications/:id',
    modules: ['src/features/specifications/dataset-page.tsx'],
    data: [],
    ssr: true,
  },
  { page: '/meta_calculations', modules: ['src/features/metas/meta-list-page.tsx'], data: [], ssr: true },
  ...['aps', 'rcv', 'rcv-application', 'individuality'].map((name) => ({
    page: `/calculators/${name}`,
    modules: ['src/features/calculators/calculator-pages.tsx'],
    data: [],
    ssr: false,
  })),
];
