import type { EstimationCore, EstimationResponse } from '@bvdb/contract';
import { loadExcel } from '../../lib/excel.js';

type Cell = string | number | boolean | null;

function estimateRows(label: string, e: EstimationCore): Cell[][] {
  const c = e.estimates.classic;
  const v = e.estimates.cv_anova;
  return [
    [
      label,
      'CVA %',
      'CVA lower',
      'CVA upper',
      'CVI %',
      'CVI lower',
      'CVI upper',
      'CVG %',
      'CVG lower',
      'CVG upper',
    ],
    [
      'Classic nested ANOVA',
      c.cva,
      ...c.cva_ci,
      c.cvi,
      ...c.cvi_ci,
      c.cvg ?? null,
      ...(c.cvg_ci ?? [null, null]),
    ],
    ['CV-ANOVA', v.cva, ...v.cva_ci, v.cvi, ...v.cvi_ci, null, null, null],
    [],
  ];
}

/** The report as a workbook: summary and estimates, exclusions, checks, each result with its fate, input. */
export async function buildEstimationWorkbook(e: EstimationResponse): Promise<Uint8Array> {
  const wb = new (await loadExcel()).Workbook();
  wb.creator = 'bvdb';
  const add = (name: string, rows: Cell[][]) => {
    const ws = wb.addWorksheet(name);
    for (const r of rows) ws.addRow(r);
    ws.getRow(1).font = { bold: true };
    ws.columns.forEach((col) => (col.width = 18));
  };
  const o = e.options;
  add('Estimates', [
    ...estimateRows('All subjects', e),
    ...Object.entries(e.strata ?? {}).flatMap(([g, s]) =>
      'error' in s ? [[`Group ${g}`, s.error], []] : estimateRows(`Group ${g}`, s),
    ),
    ['Subjects kept', e.n_subjects, 'of', e.counts_before.subjects],
    ['Samples kept', e.n_samples, 'of', e.counts_before.samples],
    ['Results kept', e.n_results, 'of', e.counts_before.results, 'missing', e.counts_before.missing],
    ['Grand mean', e.grand_mean],
    ['MS between subjects', e.anova.between_subjects.ms, 'df', e.anova.between_subjects.df],
    ['MS between samples', e.anova.between_samples.ms, 'df', e.anova.between_samples.df],
    ['MS replicates', e.anova.replicates.ms, 'df', e.anova.replicates.df],
    ['Derived from', e.derived.source],
    ['Index of individuality', e.derived.ii, 'with CVA', e.derived.ii_with_cva],
    ['RCV up %', e.derived.rcv.up, 'RCV down %', e.derived.rcv.down],
    ...e.derived.setpoint_samples.map((s): Cell[] => [
      `Samples for a set point within ${s.within_percent} %`,
      s.samples,
    ]),
    [
      'Options',
      `alpha ${o.alpha}`,
      `replicate outlier: ${o.replicate_outlier}`,
      `within-subject outlier: ${o.sample_outlier}`,
      `Reed: ${o.reed}`,
      o.bootstrap ? `bootstrap ${o.bootstrap.replicates}, seed ${o.bootstrap.seed}` : 'bootstrap off',
    ],
  ]);
  add('Exclusions', [
    ['Step', 'Subject', 'Sample', 'Statistic', 'Critical', 'p'],
    ...e.excluded.map((x): Cell[] => [x.step, x.subject, x.sample ?? null, x.statistic, x.critical, x.p]),
  ]);
  const ss = e.checks.steady_state;
  const n = e.checks.normality;
  const h = e.checks.homogeneity;
  add('Checks', [
    ['Check', 'Statistic', 'Value', 'p', 'Decision'],
    [
      'Steady state',
      'slope (CI)',
      ss ? `${ss.slope} (${ss.slope_ci[0]} to ${ss.slope_ci[1]})` : null,
      ss?.p ?? null,
      ss ? (ss.steady ? 'steady' : 'not steady') : 'not tested',
    ],
    [
      'Normality per subject',
      'passing / tested',
      `${n.per_subject.passing} / ${n.per_subject.tested}`,
      null,
      null,
    ],
    [
      'Normality of subject means',
      'W',
      n.subject_means?.w ?? null,
      n.subject_means?.p ?? null,
      `scale: ${n.scale}`,
    ],
    [
      'Normality of log subject means',
      'W',
      n.subject_means_log?.w ?? null,
      n.subject_means_log?.p ?? null,
      null,
    ],
    ['Bartlett', 'K²', h.bartlett?.k_squared ?? null, h.bartlett?.p ?? null, null],
    [
      "Cochran's C (homogeneity)",
      'C',
      h.cochran?.c ?? null,
      h.cochran?.p ?? null,
      h.cochran ? (h.cochran.homogeneous ? 'homogeneous' : 'heterogeneous') : 'not tested',
    ],
  ]);
  add('Results', [
    ['Subject', 'Group', 'Sample', 'Replicate', 'Value', 'Excluded by'],
    ...e.subjects.flatMap((s) =>
      s.points.map((p): Cell[] => [s.subject, s.group, p.sample, p.replicate, p.value, p.excluded]),
    ),
  ]);
  add('Input', [
    ['Format', e.input.format],
    ['Rows read', e.input.rows],
    ...Object.entries(e.input.columns).map(([k, v]): Cell[] => [`Column ${k}`, v]),
    ['Balanced', e.input.design.balanced],
    ['Missing values', e.input.missing.count],
    ...e.input.missing.rows.map((m): Cell[] => ['Missing', `row ${m.row}`, m.subject, m.sample, m.replicate]),
    ...(e.input.sampling
      ? ([
          ['Median sampling interval (days)', e.input.sampling.interval_days],
          ['Longest subject span (days)', e.input.sampling.span_days],
          ['Sampling times', e.input.sampling.earliest_time, e.input.sampling.latest_time],
          ['Dates not read', e.input.sampling.unread],
        ] satisfies Cell[][])
      : []),
    ...e.input.notes.map((t): Cell[] => ['Note', t]),
  ]);
  return new Uint8Array(await wb.xlsx.writeBuffer());
}
