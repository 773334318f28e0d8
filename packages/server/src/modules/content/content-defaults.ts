import type { ContentSlug } from '@bvdb/contract';

/** Page ids of the live content service (WordPress), by page. */
export const CONTENT_PAGE_IDS: Record<ContentSlug, number> = {
  about: 10,
  'eflm-wg': 37,
  publication_structure: 2,
  background: 40,
  disclaimer: 25,
};

/** Short, accurate built-in texts, used when no CONTENT_URL is configured; editable by administrators. */
export const DEFAULT_PAGES: Record<ContentSlug, { title: string; markdown: string }> = {
  about: {
    title: 'About',
    markdown: `This database collects published estimates of **biological variation** (BV): how much a
measurand varies within one person over time (CV<sub>I</sub>) and between people (CV<sub>G</sub>).

Every dataset is appraised with the **Biological Variation Data Critical Appraisal Checklist
(BIVAC)** — 14 quality items graded A to D (Aarsand et al., *Clin Chem* 2018;64:501-14). Datasets
that meet the inclusion criteria are pooled per measurand and sample type in a meta-analysis: a
weighted median of the study estimates, weighted by BIVAC grade and by the width of each study's
confidence interval.

The database also offers calculators for analytical performance specifications and reference change
values derived from these estimates.`,
  },
  'eflm-wg': {
    title: 'Publications',
    markdown: `Key publications behind the database and its methods:

- Aarsand AK, Røraas T, Fernandez-Calle P, et al. The Biological Variation Data Critical Appraisal
  Checklist: a standard for evaluating studies on biological variation. *Clin Chem* 2018;64:501-14.
- Carobene A, Aarsand AK, Bartlett WA, et al. The European Biological Variation Study (EuBIVAS): a
  summary report. *Clin Chem Lab Med* 2022;60:505-17.
- Røraas T, Petersen PH, Sandberg S. Confidence intervals and power calculations for within-person
  biological variation: effect of analytical imprecision, number of replicates, number of samples,
  and number of individuals. *Clin Chem* 2012;58:1306-13.
- Fraser CG, Hyltoft Petersen P, Libeer JC, Ricos C. Proposals for setting generally applicable quality
  goals solely based on biology. *Ann Clin Biochem* 1997;34:8-12.`,
  },
  publication_structure: {
    title: 'How to Write a Paper on BV',
    markdown: `A paper on biological variation is most useful when it reports everything the BIVAC checklist
appraises:

1. **Subjects**: number, sex, age, health status, inclusion and exclusion criteria.
2. **Samples**: number per subject, sampling interval, study duration, time of day and preparation.
3. **Measurand and method**: the sample type, the measurement procedure and its traceability.
4. **Pre-analytical handling**: collection, processing and storage.
5. **Analytical variation**: replicate analysis, ideally all samples of a subject in one run.
6. **Steady state, outliers, normality and variance homogeneity**: how each was examined.
7. **Statistics**: the (nested) ANOVA or equivalent model, with 95% confidence intervals of CV<sub>I</sub>
   and CV<sub>G</sub>.
8. **Results**: the number of results used and the concentrations of the measurand.`,
  },
  background: {
    title: 'Background',
    markdown: `Biological variation data are used to set analytical performance specifications, to judge
whether a change between two results of one person is significant (the reference change value), to
decide whether population reference intervals are useful (the index of individuality) and to plan
how many samples are needed to estimate a person's homeostatic set point.

Older BV estimates vary widely in quality. The BIVAC and the meta-analysis of appraised studies give
global estimates that laboratories can rely on.`,
  },
  disclaimer: {
    title: 'Disclaimer',
    markdown: `The estimates in this database are provided for information. They are derived from published
studies and are only as good as those studies; check the original publications before using an
estimate in clinical decisions. **Demo records** shipped with this software carry provisional demo
appraisals, not official BIVAC assessments, and are not for clinical use.`,
  },
};
