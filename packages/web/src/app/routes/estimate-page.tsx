import { lazy } from 'react';
import { Link } from 'react-router';
import { AfterHydration } from '../../components/after-hydration';

// The tool comes after hydration (the page's words are rendered on the server): decision 088.
const EstimationTool = lazy(async () => ({
  default: (await import('../../features/estimations/components/estimation-tool')).EstimationTool,
}));

export function EstimatePage() {
  return (
    <>
      <h1 className="h3">Estimate biological variation from raw results</h1>
      <p className="d-print-none">
        One row per result, in long format: subject, sample (time point), replicate, value; optionally sex or
        group and the sampling date. Start from the template:{' '}
        <a href="/api/v1/estimations/template.csv" download>
          CSV
        </a>{' '}
        or{' '}
        <a href="/api/v1/estimations/template.xlsx" download>
          xlsx
        </a>
        . Nothing you upload is stored. From your laboratory&apos;s routine results of patients instead:{' '}
        <Link to="/indirect">estimate BV from routine results</Link>.
      </p>
      <AfterHydration>
        <EstimationTool />
      </AfterHydration>
    </>
  );
}
