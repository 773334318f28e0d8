import { lazy } from 'react';
import { AfterHydration } from '../../components/after-hydration';

// The tool comes after hydration (the page's words are rendered on the server): decision 088.
const IndirectTool = lazy(async () => ({
  default: (await import('../../features/indirect/components/indirect-tool')).IndirectTool,
}));

export function IndirectPage() {
  return (
    <>
      <h1 className="h3">Biological variation from your laboratory&apos;s routine results</h1>
      <p className="d-print-none">
        An extract of your laboratory system, one row per result: a pseudonymous patient id, the date and
        time, the value and its unit; optionally sex, age and setting (inpatient, outpatient, primary care).
        Consecutive results of the same patient make pairs; three indirect methods estimate CV_total and, with
        your CVA, the within-subject CV (CVI) and the reference change value, beside bvdb&apos;s estimate.
      </p>
      <p className="d-print-none">
        <strong>The file is not kept.</strong> It is read on the server for this answer and stored nowhere; no
        patient id, value or date appears in the answer, a message or a log — only counts and summaries.
      </p>
      <AfterHydration>
        <IndirectTool />
      </AfterHydration>
    </>
  );
}
