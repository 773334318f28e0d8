import { useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';

/**
 * Every query key of the app, by the server's data it mirrors (decision 079). A key starts with its
 * root, one per kind of data, so a write invalidates the roots of what it changes — by name, never
 * with a bare `invalidateQueries()` — and a feature names another feature's reads without importing
 * it (features import shared code only, decision 047). `src/api-shape.test.ts` refuses a key written
 * anywhere else and a bare invalidation.
 */
export const queryRoots = {
  session: ['session'],
  siteInfo: ['site-info'],
  content: ['content'],
  analytes: ['analytes'],
  datasets: ['datasets'],
  references: ['references'],
  metaResults: ['meta-results'],
  metaTools: ['meta-tools'],
  applications: ['applications'],
  search: ['search'],
  estimates: ['estimates'],
  menus: ['menus'],
  appraisals: ['appraisals'],
  audit: ['audit'],
  lookups: ['lookups'],
  units: ['units'],
  releases: ['releases'],
  jobs: ['jobs'],
  statsService: ['stats-service'],
  users: ['users'],
  mailingList: ['mailing-list'],
} as const satisfies Record<string, QueryKey>;

const r = queryRoots;

export const queryKeys = {
  session: r.session,
  siteInfo: r.siteInfo,
  content: (slug: string) => [...r.content, slug],

  analytesWithCounts: [...r.analytes, 'with-counts'],
  analyte: (id: number) => [...r.analytes, 'one', id],
  measurandNames: (id: number) => [...r.analytes, 'names', id],
  measurandCodes: (id: number) => [...r.analytes, 'codes', id],
  measurandByCode: (code: string) => [...r.analytes, 'by-code', code],
  /** Laboratories' local estimates of a measurand from routine data (decision 095). */
  localEstimates: (id: number) => [...r.estimates, 'local', id],

  allDatasets: [...r.datasets, 'all'],
  datasetsPage: (page: number) => [...r.datasets, 'page', page],
  datasetsByMeasurand: [...r.datasets, 'by-measurand'],
  dataset: (id: number) => [...r.datasets, 'one', id],
  datasetsOfAnalyte: (analyteId: number) => [...r.datasets, 'of-analyte', analyteId],
  datasetsOfReference: (referenceId: number) => [...r.datasets, 'of-reference', referenceId],
  datasetForm: (id: number) => [...r.datasets, 'form', id],
  rawData: (datasetId: number) => [...r.datasets, 'raw-data', datasetId],
  manageByAnalyte: (id: number) => [...r.datasets, 'manage', 'analyte', id],
  manageByReference: (id: number) => [...r.datasets, 'manage', 'reference', id],

  referencesPage: (page: number, search: string) => [...r.references, 'page', page, search],
  reference: (id: number) => [...r.references, 'one', id],
  allReferences: [...r.references, 'all'],
  referenceOptions: [...r.references, 'options'],

  counters: [...r.metaResults, 'counters'],
  metaList: [...r.metaResults, 'list'],
  headlineMetas: [...r.metaResults, 'headline'],
  metasOfAnalyte: (id: number) => [...r.metaResults, 'of-analyte', id],
  metasOfAnalyteAsOf: (id: number, asOf: string) => [...r.metaResults, 'of-analyte-as-of', id, asOf],
  /** A measurand's population facets with their counts, and a facet set's estimates (issue 47). */
  measurandFacets: (id: number) => [...r.metaResults, 'facets', id],
  populationMetas: (id: number, facets: string, asOf: string | null) => [
    ...r.metaResults,
    'population',
    id,
    facets,
    asOf,
  ],
  metasByType: (analyte: number, matrix: number, type: string) => [
    ...r.metaResults,
    'by-type',
    analyte,
    matrix,
    type,
  ],
  metaInputTables: (analyteId: number) => [...r.metaResults, 'input-tables', analyteId],
  checkedMeta: (id: number, computedAt: string) => [...r.metaResults, 'check', id, computedAt],

  validateForMeta: (ids: number[]) => [...r.metaTools, 'validate', ids],
  simulateMeta: (type: string, input: unknown) => [...r.metaTools, 'simulate', type, input],

  applications: (...params: unknown[]) => [...r.applications, ...params],
  search: (query: string) => [...r.search, query],
  estimateHistory: (estimateId: number, version: number | null) => [
    ...r.estimates,
    'history',
    estimateId,
    version,
  ],

  keptMenu: (id: string) => [...r.menus, 'kept', id],
  myMenus: [...r.menus, 'mine'],
  myMenusPage: (page: number) => [...r.menus, 'mine', page],

  myAppraisals: [...r.appraisals, 'mine'],
  myAppraisal: (id: number) => [...r.appraisals, 'mine', id],
  appraisalBoard: [...r.appraisals, 'board'],
  agreement: (from: string, to: string) => [...r.appraisals, 'agreement', from, to],

  audit: (entity: string, id: number) => [...r.audit, entity, id],

  lookups: [...r.lookups, 'all'],
  matrices: [...r.lookups, 'matrices'],
  units: r.units,

  releases: [...r.releases, 'list'],
  release: (version: string) => [...r.releases, 'one', version],
  releaseBuilds: [...r.releases, 'builds'],

  queueJobs: [...r.jobs, 'queue'],
  latestMetaJobs: [...r.jobs, 'queue', 'latest-meta'],
  statsService: r.statsService,

  users: r.users,
  mailingList: r.mailingList,
} as const;

/**
 * What a change to a dataset changes — created, copied, edited, deleted, uploaded in bulk or sent to
 * appraisal: the dataset lists and pages, the measurands' counts, the results recomputed from it (and
 * the counters, applications, search answers, estimate histories and kept menus judged on them), the
 * references' dataset counts, the audit trail, the appraisal board and the job queued to recompute.
 */
export const datasetChangeKeys: readonly QueryKey[] = [
  r.datasets,
  r.analytes,
  r.metaResults,
  r.applications,
  r.search,
  r.estimates,
  r.menus,
  r.references,
  r.audit,
  r.appraisals,
  r.jobs,
];

/**
 * What a change to a reference changes — created, edited, deleted, imported from a citation file or
 * given its article: the reference lists and pages (and the counters' number of references), and the
 * datasets and results that show its citation, with the audit trail.
 */
export const referenceChangeKeys: readonly QueryKey[] = [r.references, r.datasets, r.metaResults, r.audit];

/**
 * What a change to a unit changes — added, renamed or deleted: the units, the form lookups, and every
 * answer that shows a unit's name beside a value (the same reads a dataset change touches).
 */
export const unitChangeKeys: readonly QueryKey[] = [r.units, r.lookups, ...datasetChangeKeys];

/**
 * Every root: what a change of who is asking (signing in or out) or a whole-database import changes.
 * Staff see drafts, "mine" lists and staff-only reads, so every answer may differ for the new visitor;
 * an import may replace every table.
 */
export const everyKey: readonly QueryKey[] = Object.values(queryRoots);

/** Marks the queries under each key stale and reads the shown ones again (resolves when they are back). */
export async function invalidateKeys(queryClient: QueryClient, keys: readonly QueryKey[]): Promise<void> {
  await Promise.all(keys.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
}

/** For a write's success handler: a function that invalidates these keys (see `invalidateKeys`). */
export function useInvalidate(keys: readonly QueryKey[]): () => Promise<void> {
  const queryClient = useQueryClient();
  return () => invalidateKeys(queryClient, keys);
}
