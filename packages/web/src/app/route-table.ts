/**
 * Every page of the app, once. The router (app/routes.tsx, which the server rendering in
 * entry-server.tsx uses too) and the build's preload hints (build/page-preloads-plugin.ts, which
 * writes dist/page-preloads.json for the server) are derived from this list.
 *
 * Imports only lib/paths.ts (itself free of imports, the patterns of the pages about a record, which
 * the app's links are built from), so the build can load it. `route-table.test.ts` checks every data path
 * against the contract, that the pages fetch exactly these on first load, and that every page file
 * exports its page.
 */
import { recordPagePatterns as recordPage } from '../lib/paths';

/** The kinds of record a page can be about (its `:id`). */
export type PageRecord = 'measurand' | 'reference' | 'dataset' | 'appraisal' | 'kept-menu';

export interface PageRoute {
  /** The URL pattern, as both react-router and the server (plugins/page-preloads.ts) match it. */
  path: string;
  /** The page's file in app/routes/, without `.tsx`; it exports the page in PascalCase (home-page → HomePage). */
  page: string;
  /**
   * What the server is told about the page, so it can announce the page's needs in the HTML
   * (`<link rel="modulepreload">` for its code, `<link rel="preload" as="fetch">` for its API
   * answers) and the browser fetches it all at once instead of one round trip after another.
   * A page without it gets only the every-page hints and is rendered in the browser.
   */
  /**
   * The record the page shows, by its `:id`: the server answers 404 (with the app's "Page not
   * found") when there is none the visitor may see (packages/server/src/plugins/page-records.ts).
   */
  record?: PageRecord;
  server?: {
    /** API paths the page fetches on first render, without a query string; params take the value of the page param of the same name. */
    data: string[];
    /**
     * Rendered on the server for anonymous visitors (packages/server/src/plugins/ssr.ts): the page
     * paints with its data before any script runs. Off for the calculators: a form that shows
     * before it works would drop what was typed. A page whose answer is too large to embed marks
     * that query `meta: { ssr: false }` and paints from a smaller one (the all-datasets list
     * renders its page N, decision 013). CMS pages are not announced at all: they stay rendered
     * in the browser (decision 004); their HTML comes sanitised from the server (modules/content).
     */
    ssr: boolean;
  };
}

/** Fetched by the layout on every page, per visitor: never part of a server-rendered page. */
export const visitorData = ['/api/session'];
/** Fetched by the layout on every page, the same for everyone. */
export const everyPageData = ['/api/site'];

const rendered = { data: [], ssr: true };
const calculator = { data: [], ssr: false };

export const pageRoutes: PageRoute[] = [
  { path: '/', page: 'home-page', server: { data: ['/api/meta'], ssr: true } },
  { path: '/search', page: 'search-results-page', server: rendered },
  { path: '/matrices', page: 'matrices-page', server: rendered },
  { path: '/references', page: 'references-page', server: rendered },
  { path: '/references/new', page: 'new-reference-page' },
  { path: '/references/import', page: 'citation-import-page' },
  { path: '/measurand_codes/import', page: 'measurand-codes-import-page' },
  { path: recordPage.reference, page: 'reference-page', record: 'reference', server: rendered },
  { path: recordPage.editReference, page: 'edit-reference-page', record: 'reference' },
  {
    path: '/bv_specifications',
    page: 'specifications-page',
    server: { data: ['/api/bv_specifications'], ssr: true },
  },
  { path: '/bv_specifications/measurand', page: 'by-measurand-page', server: rendered },
  { path: '/bv_specifications/new', page: 'new-dataset-page' },
  { path: '/bv_specifications/upload', page: 'dataset-upload-page' },
  { path: recordPage.dataset, page: 'dataset-page', record: 'dataset', server: rendered },
  { path: recordPage.editDataset, page: 'edit-dataset-page', record: 'dataset' },
  { path: recordPage.copyDataset, page: 'copy-dataset-page', record: 'dataset' },
  {
    path: recordPage.analyte,
    page: 'analyte-page',
    record: 'measurand',
    server: {
      data: ['/api/analytes/:id', '/api/analyte_specifications/:id', '/api/v1/measurands/:id/metas'],
      ssr: true,
    },
  },
  {
    path: '/meta_calculations',
    page: 'meta-list-page',
    server: { data: ['/api/meta_calculations'], ssr: true },
  },
  {
    path: '/applications',
    page: 'applications-page',
    server: { data: ['/api/v1/applications'], ssr: true },
  },
  {
    path: '/releases',
    page: 'releases-page',
    server: { data: ['/api/v1/releases'], ssr: true },
  },
  // Their words rendered on the server, their forms after hydration (components/after-hydration.tsx,
  // decision 088): nothing typed is dropped, and the page paints before its scripts run.
  { path: '/applications/menu', page: 'menu-page', server: rendered },
  // A kept menu (decision 064): judged again on today's data and per visitor ("mine"), so not
  // rendered on the server, whose pages are kept per data generation, not per menu write.
  { path: recordPage.keptMenu, page: 'kept-menu-page', record: 'kept-menu', server: calculator },
  { path: '/calculators/aps', page: 'aps-page', server: calculator },
  { path: '/calculators/rcv', page: 'rcv-page', server: calculator },
  { path: '/calculators/rcv-application', page: 'rcv-application-page', server: calculator },
  { path: '/calculators/individuality', page: 'individuality-page', server: calculator },
  { path: '/estimate', page: 'estimate-page', server: rendered },
  { path: '/indirect', page: 'indirect-page', server: rendered },
  { path: '/about', page: 'about-page' },
  { path: '/eflm-wg', page: 'eflm-wg-page' },
  { path: '/publication_structure', page: 'publication-structure-page' },
  { path: '/background', page: 'background-page' },
  { path: '/disclaimer', page: 'disclaimer-page' },
  { path: '/users/sign_in', page: 'sign-in-page' },
  { path: '/users/edit', page: 'change-password-page' },
  { path: '/analyte_filter', page: 'analyte-filter-page' },
  { path: '/reference_filter', page: 'reference-filter-page' },
  { path: '/units', page: 'units-page' },
  { path: '/mailing_list', page: 'mailing-list-page' },
  { path: '/jobs', page: 'job-tracker-page' },
  { path: '/meta_jobs', page: 'meta-jobs-page' },
  { path: '/meta_simulator', page: 'simulator-page' },
  { path: '/meta_checker', page: 'checker-page' },
  { path: '/input_tables', page: 'input-tables-page' },
  { path: '/dashboard', page: 'dashboard-page' },
  { path: '/admin/import', page: 'database-import-page' },
  { path: '/users', page: 'users-page' },
  { path: '/appraisals', page: 'my-appraisals-page' },
  { path: '/appraisals/board', page: 'appraisal-board-page' },
  { path: '/appraisals/agreement', page: 'appraisal-agreement-page' },
  { path: recordPage.appraisal, page: 'appraisal-page', record: 'appraisal' },
  { path: '*', page: 'not-found-page' },
];
