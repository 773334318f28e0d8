/**
 * The URL patterns of the pages about one record, and the links to them (decision 079). The route
 * table (app/route-table.ts) takes these patterns for its entries, and every in-app link to a record
 * is built here — `paths.dataset(id)`, never a template string in a component — so a page that moves
 * moves its links with it. They live in lib/ rather than app/ because features and shared components
 * may not import app/ (decision 047); like the route table, the file imports nothing, so the build can
 * load it. `src/link-shape.test.ts` refuses a template-string link elsewhere and
 * `app/route-table.test.ts` routes every builder to its own page.
 */
export const recordPagePatterns = {
  analyte: '/analytes/:id',
  reference: '/references/:id',
  editReference: '/references/:id/edit',
  dataset: '/bv_specifications/:id',
  editDataset: '/bv_specifications/:id/edit',
  copyDataset: '/bv_specifications/:id/copy',
  appraisal: '/appraisals/:id',
  keptMenu: '/applications/menu/:id',
} as const;

type RecordPage = keyof typeof recordPagePatterns;

const withId =
  (page: RecordPage) =>
  (id: number | string): string =>
    recordPagePatterns[page].replace(':id', encodeURIComponent(String(id)));

/** The in-app path of each record page, by the record's id. */
export const paths = {
  analyte: withId('analyte'),
  reference: withId('reference'),
  editReference: withId('editReference'),
  dataset: withId('dataset'),
  editDataset: withId('editDataset'),
  copyDataset: withId('copyDataset'),
  appraisal: withId('appraisal'),
  keptMenu: withId('keptMenu'),
} satisfies Record<RecordPage, (id: number | string) => string>;
