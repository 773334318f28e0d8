import type { DatasetFieldName, EstimationResponse } from '@bvdb/contract';
import { datasetSamplingOf, QUALITY_ITEMS, type Grade, type QualityItemKey } from '@bvdb/domain';

/** A draft BIVAC answer: the grade the report supports and the report's evidence for it. */
export interface DraftGrade {
  key: QualityItemKey;
  grade: Grade;
  evidence: string;
}

/** What "Create a draft dataset" hands the dataset form: its inputs' text under the payload field names. */
export interface EstimationDraft {
  values: Partial<Record<DatasetFieldName, string>>;
  grades: DraftGrade[];
}

/** The router state key the dataset form reads the draft from (app/routes/new-dataset-page.tsx). */
export const ESTIMATION_DRAFT_STATE = 'estimationDraft';
/** The router state key of the file the report was estimated from, kept with the dataset it drafts. */
export const ESTIMATION_FILE_STATE = 'estimationFile';

const r = (n: number | null | undefined, digits = 2) =>
  n === null || n === undefined || !Number.isFinite(n) ? '' : String(Number(n.toFixed(digits)));
const pct = (n: number | null | undefined) => (n === null || n === undefined ? 'n/a' : `${r(n, 1)} %`);
const ci = (c: readonly [number | null, number | null]) => `${pct(c[0])} to ${pct(c[1])}`;
const p = (x: number | null) => (x === null ? 'n/a' : x < 0.001 ? '< 0.001' : r(x, 3));

/** The grade if the item allows it, else the item's nearest allowed grade below it (never one the spec forbids). */
function allowed(key: QualityItemKey, grade: Grade): Grade {
  const item = QUALITY_ITEMS.find((i) => i.key === key)!;
  const grades = item.allowedGrades as readonly Grade[];
  if (grades.includes(grade)) return grade;
  const order: Grade[] = ['A', 'B', 'C', 'D'];
  for (const g of order.slice(order.indexOf(grade))) if (grades.includes(g)) return g;
  return 'NA';
}

/**
 * Draft BIVAC answers for the items the data speak to (QI 6–13; Aarsand et al., Clin Chem
 * 2018;64:501-14), each with the report's evidence. Drafts for a curator to confirm: the rules are
 * decision 054's, and every grade is one the spec allows for its item.
 */
export function draftGrades(e: EstimationResponse): DraftGrade[] {
  const { design } = e.input;
  const o = e.options;
  const steps = [o.replicate_outlier !== 'none', o.sample_outlier, o.reed].filter(Boolean).length;
  const ss = e.checks.steady_state;
  const n = e.checks.normality;
  const h = e.checks.homogeneity;
  const classic = e.estimates.classic;
  const out: [QualityItemKey, Grade, string][] = [
    [
      'replicate_analysis',
      design.replicates_per_sample.min >= 2 ? 'A' : design.replicates_per_sample.max >= 2 ? 'B' : 'C',
      `CVA ${pct(classic.cva)} (CI ${ci(classic.cva_ci)}) from the replicates; ${design.samples_with_one_replicate} sample(s) with one replicate.`,
    ],
    [
      'steady_state',
      ss === null ? 'B' : ss.steady ? 'A' : 'C',
      ss === null
        ? 'Not tested: fewer than 3 samples per subject.'
        : `Regression of sample means on sample number: slope ${r(ss.slope, 4)} (${r(ss.slope_percent, 2)} % of the mean per sample), CI ${r(ss.slope_ci[0], 4)} to ${r(ss.slope_ci[1], 4)}, p ${p(ss.p)}: ${ss.steady ? 'steady' : 'not steady'}.`,
    ],
    [
      'outlier_analysis',
      steps === 3 ? 'A' : steps > 0 ? 'B' : 'C',
      `${steps} of 3 outlier steps on (Cochran replicates, Cochran within-subject, Reed); ${e.excluded.length} exclusion(s): ${e.excluded.map((x) => `${x.step} ${x.subject}${x.sample ? `/${x.sample}` : ''}`).join(', ') || 'none'}.`,
    ],
    [
      'normality',
      n.subject_means !== null || n.per_subject.tested > 0 ? 'A' : 'B',
      `Shapiro–Wilk: ${n.per_subject.passing}/${n.per_subject.tested} subjects pass; subject means p ${p(n.subject_means?.p ?? null)}; scale used: ${n.scale}.`,
    ],
    [
      'variance_homogeneity',
      h.bartlett !== null || h.cochran !== null ? 'A' : 'C',
      `Bartlett p ${p(h.bartlett?.p ?? null)}; Cochran's C ${r(h.cochran?.c ?? null, 3)} (critical ${r(h.cochran?.critical ?? null, 3)})${h.cochran ? (h.cochran.homogeneous ? ': homogeneous' : ': heterogeneous') : ''}.`,
    ],
    [
      'anova',
      'A',
      `Nested random-effects ANOVA (method of moments, unbalanced) and CV-ANOVA; derived values from ${e.derived.source === 'cv_anova' ? 'CV-ANOVA' : 'the classic ANOVA'}.`,
    ],
    [
      'ci',
      classic.cvi_ci[0] !== null && classic.cvi_ci[1] !== null ? 'A' : 'C',
      `CVI ${pct(classic.cvi)} (CI ${ci(classic.cvi_ci)}); CVG ${pct(classic.cvg)}${classic.cvg_ci ? ` (CI ${ci(classic.cvg_ci)})` : ''}; χ² for CVA, modified large-sample for CVI and CVG.`,
    ],
    [
      'number_of_results',
      'A',
      `${e.n_results} results of ${e.n_subjects} subjects and ${e.n_samples} samples kept, of ${e.counts_before.results} (${e.counts_before.missing} missing).`,
    ],
  ];
  return out.map(([key, grade, evidence]) => ({ key, grade: allowed(key, grade), evidence }));
}

const FEMALE = new Set(['f', 'female', 'females', 'woman', 'women', 'girl', 'girls']);
const MALE = new Set(['m', 'male', 'males', 'man', 'men', 'boy', 'boys']);

/**
 * Numbers of males and females and the sex for meta-analysis, when the group column is sex (every
 * subject's group reads as female or male); otherwise nothing, and the form keeps its defaults.
 */
export function draftSex(e: EstimationResponse): EstimationDraft['values'] {
  let females = 0;
  let males = 0;
  for (const s of e.subjects) {
    const g = (s.group ?? '').trim().toLowerCase();
    if (FEMALE.has(g)) females++;
    else if (MALE.has(g)) males++;
    else return {};
  }
  if (females + males === 0) return {};
  return {
    number_of_females: String(females),
    number_of_males: String(males),
    sex_for_meta_analysis: females && males ? 'Mixed' : females ? 'Females' : 'Males',
  };
}

/**
 * The sampling fields from what the date column showed (input.sampling): samples per interval unit,
 * study duration, sampling times, weekly flag. Only what the dates tell; the rest keeps the form's
 * defaults.
 */
export function draftSampling(e: EstimationResponse): EstimationDraft['values'] {
  const f = datasetSamplingOf(e.input.sampling ?? null);
  const out: EstimationDraft['values'] = {};
  if (f.samples_per !== null && f.interval_units !== null) {
    out.samples_per = String(f.samples_per);
    out.interval_units = f.interval_units;
    out.weekly_samplings = String(f.weekly_samplings);
  }
  if (f.study_duration !== null && f.study_duration_units !== null) {
    out.study_duration = String(f.study_duration);
    out.study_duration_units = f.study_duration_units;
  }
  if (f.sampling_times_start_time && f.sampling_times_end_time) {
    out.sampling_times_start_time = f.sampling_times_start_time;
    out.sampling_times_end_time = f.sampling_times_end_time;
  }
  return out;
}

/** The method, as a sentence for the dataset's comment: which ANOVA gave which estimate, which intervals. */
export function methodOf(e: EstimationResponse): string {
  const within =
    e.derived.source === 'cv_anova' ? 'CV-ANOVA (Røraas et al. 2016)' : 'the classic nested ANOVA';
  const steps = [
    e.options.replicate_outlier !== 'none'
      ? `Cochran's C on replicates (removing the ${e.options.replicate_outlier})`
      : null,
    e.options.sample_outlier ? "Cochran's C on within-subject variances" : null,
    e.options.reed ? "Reed's criterion on subject means" : null,
  ].filter(Boolean);
  return (
    `Estimated in bvdb from the raw results: outliers by ${steps.join(', ') || 'no outlier step'}; ` +
    `CVA and CVI from ${within}, CVG from the nested random-effects ANOVA (method of moments, unbalanced); ` +
    `${Math.round((1 - e.options.alpha) * 100)} % intervals χ² for CVA, modified large-sample for CVI and CVG.`
  );
}

/**
 * What the estimator does not assess (issue 42.4): QI 1–5 and QI 14 (scale, subjects, samples,
 * measurand, pre-analytical, concentrations) and the population (state of well-being, ethnicity,
 * sex unless the group column gives it). A draft leaves them empty, never the form's defaults (A,
 * Healthy, Caucasian, Males), and the form asks the curator to choose each.
 */
export const UNASSESSED_BY_ESTIMATOR = [
  ...QUALITY_ITEMS.filter((i) => i.number <= 5 || i.number === 14).map((i) => i.key),
  'state_of_well_being_id',
  'ethnicity_id',
  'sex_for_meta_analysis',
] as const satisfies readonly DatasetFieldName[];

/** The dataset form's inputs from a report: counts, estimates with their CIs, sampling, and QI 6–13. */
export function draftDataset(e: EstimationResponse): EstimationDraft {
  const grades = draftGrades(e);
  const unassessed = Object.fromEntries(
    UNASSESSED_BY_ESTIMATOR.map((k) => [k, '']),
  ) as EstimationDraft['values'];
  const set = e.derived.source === 'cv_anova' ? e.estimates.cv_anova : e.estimates.classic;
  const classic = e.estimates.classic;
  const values: EstimationDraft['values'] = {
    ...unassessed,
    number_of_subjects: String(e.counts_before.subjects),
    number_of_subjects_included_in_bv_estimation: String(e.n_subjects),
    average_number_of_samples_used_for_bv_estimation: r(e.n_samples / Math.max(1, e.n_subjects), 2),
    average_number_of_replicates: r(e.n_results / Math.max(1, e.n_samples), 2),
    estimates_of_cvi: r(set.cvi),
    reported_cvi_lower_confidence_interval: r(set.cvi_ci[0]),
    reported_cvi_upper_confidence_interval: r(set.cvi_ci[1]),
    estimates_of_cvg: r(classic.cvg),
    reported_cvg_lower_confidence_interval: r(classic.cvg_ci?.[0]),
    reported_cvg_upper_confidence_interval: r(classic.cvg_ci?.[1]),
    analytical_cv: r(set.cva),
    concentration_mean: r(e.grand_mean, 4),
    ...draftSex(e),
    ...draftSampling(e),
    comment: methodOf(e),
    scoring_comment: [
      `Draft from bvdb's estimation of the raw results (${e.input.rows} rows; α ${e.options.alpha}; ${e.derived.source === 'cv_anova' ? 'CV-ANOVA' : 'classic ANOVA'}).`,
      ...grades.map((g) => {
        const item = QUALITY_ITEMS.find((i) => i.key === g.key)!;
        return `QI${item.number} ${item.label} (${g.grade}): ${g.evidence}`;
      }),
    ].join('\n'),
  };
  for (const g of grades) values[g.key] = g.grade;
  return { values, grades };
}
