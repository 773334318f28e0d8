import { lazy, type ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import { HomePage } from '../features/home/home-page';
import { Layout } from './layout';
import { NotFoundPage } from './not-found-page';

/** Route-level code splitting: each page is its own chunk, loaded when first visited. */
function page<M extends Record<string, unknown>>(load: () => Promise<M>, name: keyof M) {
  return lazy(async () => ({ default: (await load())[name] as ComponentType }));
}

const SearchResultsPage = page(() => import('../features/search/search-results-page'), 'SearchResultsPage');
const MatricesPage = page(() => import('../features/matrices/matrices-page'), 'MatricesPage');
const ReferencesPage = page(() => import('../features/references/references-page'), 'ReferencesPage');
const ReferencePage = page(() => import('../features/references/reference-page'), 'ReferencePage');
const SpecificationsPage = page(
  () => import('../features/specifications/specifications-page'),
  'SpecificationsPage',
);
const ByMeasurandPage = page(() => import('../features/specifications/by-measurand-page'), 'ByMeasurandPage');
const DatasetPage = page(() => import('../features/specifications/dataset-page'), 'DatasetPage');
const AnalytePage = page(() => import('../features/analytes/analyte-page'), 'AnalytePage');
const MetaListPage = page(() => import('../features/metas/meta-list-page'), 'MetaListPage');
const ApsPage = page(() => import('../features/calculators/calculator-pages'), 'ApsPage');
const RcvPage = page(() => import('../features/calculators/calculator-pages'), 'RcvPage');
const RcvApplicationPage = page(
  () => import('../features/calculators/calculator-pages'),
  'RcvApplicationPage',
);
const IndividualityPage = page(() => import('../features/calculators/calculator-pages'), 'IndividualityPage');
const SignInPage = page(() => import('../features/auth/sign-in-page'), 'SignInPage');
const ChangePasswordPage = page(() => import('../features/auth/change-password-page'), 'ChangePasswordPage');
const ContentPage = lazy(async () => ({
  default: (await import('../features/content/content-page')).ContentPage,
}));
const NewReferencePage = page(
  () => import('../features/reference-admin/reference-form-pages'),
  'NewReferencePage',
);
const EditReferencePage = page(
  () => import('../features/reference-admin/reference-form-pages'),
  'EditReferencePage',
);
const NewDatasetPage = page(() => import('../features/dataset-admin/dataset-form-pages'), 'NewDatasetPage');
const EditDatasetPage = page(() => import('../features/dataset-admin/dataset-form-pages'), 'EditDatasetPage');
const CopyDatasetPage = page(() => import('../features/dataset-admin/dataset-form-pages'), 'CopyDatasetPage');
const AnalyteFilterPage = page(() => import('../features/manage/analyte-filter-page'), 'AnalyteFilterPage');
const ReferenceFilterPage = page(
  () => import('../features/manage/reference-filter-page'),
  'ReferenceFilterPage',
);
const UnitsPage = page(() => import('../features/units/units-page'), 'UnitsPage');
const MailingListPage = page(() => import('../features/mailing-list/mailing-list-page'), 'MailingListPage');
const JobTrackerPage = page(() => import('../features/meta-tools/job-tracker-page'), 'JobTrackerPage');
const MetaJobsPage = page(() => import('../features/meta-tools/meta-jobs-page'), 'MetaJobsPage');
const SimulatorPage = page(() => import('../features/meta-tools/simulator-page'), 'SimulatorPage');
const CheckerPage = page(() => import('../features/meta-tools/checker-page'), 'CheckerPage');
const InputTablesPage = page(() => import('../features/meta-tools/input-tables-page'), 'InputTablesPage');
const DashboardPage = page(() => import('../features/meta-tools/dashboard-page'), 'DashboardPage');

export const routes: RouteObject[] = [
  {
    element: <Layout />,
    children: [
      { index: true, element: <HomePage /> },
      { path: 'search', element: <SearchResultsPage /> },
      { path: 'matrices', element: <MatricesPage /> },
      { path: 'references', element: <ReferencesPage /> },
      { path: 'references/new', element: <NewReferencePage /> },
      { path: 'references/:id', element: <ReferencePage /> },
      { path: 'references/:id/edit', element: <EditReferencePage /> },
      { path: 'bv_specifications', element: <SpecificationsPage /> },
      { path: 'bv_specifications/measurand', element: <ByMeasurandPage /> },
      { path: 'bv_specifications/new', element: <NewDatasetPage /> },
      { path: 'bv_specifications/:id', element: <DatasetPage /> },
      { path: 'bv_specifications/:id/edit', element: <EditDatasetPage /> },
      { path: 'bv_specifications/:id/copy', element: <CopyDatasetPage /> },
      { path: 'analytes/:id', element: <AnalytePage /> },
      { path: 'meta_calculations', element: <MetaListPage /> },
      { path: 'calculators/aps', element: <ApsPage /> },
      { path: 'calculators/rcv', element: <RcvPage /> },
      { path: 'calculators/rcv-application', element: <RcvApplicationPage /> },
      { path: 'calculators/individuality', element: <IndividualityPage /> },
      { path: 'about', element: <ContentPage slug="about" /> },
      { path: 'eflm-wg', element: <ContentPage slug="eflm-wg" /> },
      { path: 'publication_structure', element: <ContentPage slug="publication_structure" /> },
      { path: 'background', element: <ContentPage slug="background" /> },
      { path: 'disclaimer', element: <ContentPage slug="disclaimer" /> },
      { path: 'users/sign_in', element: <SignInPage /> },
      { path: 'users/edit', element: <ChangePasswordPage /> },
      { path: 'analyte_filter', element: <AnalyteFilterPage /> },
      { path: 'reference_filter', element: <ReferenceFilterPage /> },
      { path: 'units', element: <UnitsPage /> },
      { path: 'mailing_list', element: <MailingListPage /> },
      { path: 'jobs', element: <JobTrackerPage /> },
      { path: 'meta_jobs', element: <MetaJobsPage /> },
      { path: 'meta_simulator', element: <SimulatorPage /> },
      { path: 'meta_checker', element: <CheckerPage /> },
      { path: 'input_tables', element: <InputTablesPage /> },
      { path: 'dashboard', element: <DashboardPage /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];
