import type { EstimationCore, EstimationResponse } from '@bvdb/contract';
import { formatFixed } from '@bvdb/domain';
import Button from 'react-bootstrap/Button';
import Table from 'react-bootstrap/Table';
import { SubjectPlots } from './subject-plot';

type Interval = readonly [number | null, number | null];
const num = (n: number | null | undefined, digits = 2) =>
  n === null || n === undefined
    ? '—'
    : n.toLocaleString('en-GB', { maximumFractionDigits: digits, minimumFractionDigits: 0 });
const pval = (p: number | null | undefined) =>
  p === null || p === undefined ? '—' : p < 0.001 ? '< 0.001' : num(p, 3);
/** A fixed number of decimals ("4.0", never "4"): both ends of an interval read alike (issue 42.8). */
const fixed = (n: number | null | undefined, digits = 1) =>
  n === null || n === undefined ? '—' : formatFixed(n, digits);
const ci = (c: Interval | undefined | null) => (c ? `${fixed(c[0])} – ${fixed(c[1])}` : '—');
/** A signed percentage with one minus sign, the typographic one ("−26.4", "+35.9"), never "−-26.4". */
export const signedPercent = (n: number | null | undefined) =>
  n === null || n === undefined ? '—' : n < 0 ? `−${formatFixed(-n, 1)}` : `+${formatFixed(n, 1)}`;

interface Step {
  step: string;
  statistic: string;
  p: string;
  decision: string;
  /** Said in words beside the step: it removed more than a fifth of the subjects (issue 42.8). */
  warning?: string;
}

const STEP_LABEL = {
  replicate_cochran: "Cochran's C, replicate variances",
  sample_cochran: "Cochran's C, within-subject variances",
  reed: "Reed's criterion, subject means",
} as const;

/**
 * Every step of the pipeline in order, with its statistic, p-value and decision (issue 31 point 2). A
 * step that removed more than a fifth of the subjects it started with says so in words (issue 42.8):
 * in a small study the outlier tests can take away the study's own spread.
 */
export function pipelineSteps(
  e: EstimationCore & Pick<EstimationResponse, 'counts_before'>,
  options: EstimationResponse['options'],
): Step[] {
  const rows: Step[] = [];
  let subjectsLeft = e.counts_before.subjects;
  const outlierStep = (key: keyof typeof STEP_LABEL, on: boolean, what: string) => {
    if (!on) {
      rows.push({ step: STEP_LABEL[key], statistic: '—', p: '—', decision: 'Step turned off' });
      return;
    }
    const found = e.excluded.filter((x) => x.step === key);
    for (const x of found) {
      rows.push({
        step: STEP_LABEL[key],
        statistic: `${key === 'reed' ? 'gap/range' : 'C'} = ${num(x.statistic, 4)} (critical ${num(x.critical, 4)})`,
        p: pval(x.p),
        decision: `Excluded ${what === 'sample' && x.sample ? `subject ${x.subject}, sample ${x.sample}` : `subject ${x.subject}`}`,
      });
    }
    if (found.length === 0)
      rows.push({ step: STEP_LABEL[key], statistic: '—', p: '—', decision: 'No outlier' });
    const removed = what === 'sample' ? 0 : new Set(found.map((x) => x.subject)).size;
    if (removed > 0 && removed * 5 > subjectsLeft) {
      rows[rows.length - 1]!.warning =
        `This step removed ${removed} of the ${subjectsLeft} subjects it was given, more than a fifth: ` +
        'check that they are outliers and not the spread of the study.';
    }
    subjectsLeft -= removed;
  };
  outlierStep('replicate_cochran', options.replicate_outlier !== 'none', options.replicate_outlier);
  outlierStep('sample_cochran', options.sample_outlier, 'subject');
  outlierStep('reed', options.reed, 'subject');
  const ss = e.checks.steady_state;
  rows.push(
    ss
      ? {
          step: 'Steady state: regression of sample means on sample number',
          statistic: `slope ${num(ss.slope, 4)} (${num(ss.slope_percent, 2)} %/sample), CI ${num(ss.slope_ci[0], 4)} to ${num(ss.slope_ci[1], 4)}`,
          p: pval(ss.p),
          decision: ss.steady ? 'Steady state (CI holds 0)' : 'Not steady (CI excludes 0)',
        }
      : { step: 'Steady state', statistic: '—', p: '—', decision: 'Not tested (fewer than 3 samples)' },
  );
  const n = e.checks.normality;
  rows.push({
    step: 'Normality: Shapiro–Wilk per subject',
    statistic: `${n.per_subject.passing} of ${n.per_subject.tested} pass (log: ${n.per_subject_log.passing})`,
    p: '—',
    decision:
      n.per_subject.share_passing === null
        ? 'Not tested'
        : `${num(100 * n.per_subject.share_passing, 0)} % pass`,
  });
  rows.push({
    step: 'Normality: Shapiro–Wilk on subject means',
    statistic: n.subject_means
      ? `W = ${num(n.subject_means.w, 4)}; log W = ${num(n.subject_means_log?.w, 4)}`
      : '—',
    p: n.subject_means ? `${pval(n.subject_means.p)}; log ${pval(n.subject_means_log?.p)}` : '—',
    decision: `Scale: ${n.scale === 'cv_anova' ? 'CV-ANOVA' : n.scale}`,
  });
  const h = e.checks.homogeneity;
  rows.push({
    step: 'Homogeneity: Bartlett',
    statistic: h.bartlett ? `K² = ${num(h.bartlett.k_squared, 3)} on ${h.bartlett.df} df` : '—',
    p: pval(h.bartlett?.p),
    decision: h.bartlett
      ? h.bartlett.p !== null && h.bartlett.p < options.alpha
        ? 'Heterogeneous'
        : 'Homogeneous'
      : 'Not tested',
  });
  rows.push({
    step: "Homogeneity: Cochran's C",
    statistic: h.cochran
      ? `C = ${num(h.cochran.c, 4)} (critical ${num(h.cochran.critical, 4)}, subject ${h.cochran.subject})`
      : '—',
    p: pval(h.cochran?.p),
    decision: h.cochran ? (h.cochran.homogeneous ? 'Homogeneous' : 'Heterogeneous') : 'Not tested',
  });
  return rows;
}

function Estimates({ e, caption }: { e: EstimationCore; caption: string }) {
  const c = e.estimates.classic;
  const v = e.estimates.cv_anova;
  // One card per method on a phone (as the pipeline): every estimate and interval stays on screen.
  return (
    <Table size="sm" bordered className="align-middle table-stack-phone">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Method</th>
          <th scope="col">CVA % (CI)</th>
          <th scope="col">CVI % (CI)</th>
          <th scope="col">CVG % (CI)</th>
        </tr>
      </thead>
      <tbody>
        <tr>
          <th scope="row" data-label="Method">
            Classic nested ANOVA
          </th>
          <td data-label="CVA % (CI)">
            {num(c.cva)} ({ci(c.cva_ci)})
          </td>
          <td data-label="CVI % (CI)">
            {num(c.cvi)} ({ci(c.cvi_ci)})
          </td>
          <td data-label="CVG % (CI)">
            {num(c.cvg)} ({ci(c.cvg_ci)})
          </td>
        </tr>
        <tr>
          <th scope="row" data-label="Method">
            CV-ANOVA
          </th>
          <td data-label="CVA % (CI)">
            {num(v.cva)} ({ci(v.cva_ci)})
          </td>
          <td data-label="CVI % (CI)">
            {num(v.cvi)} ({ci(v.cvi_ci)})
          </td>
          <td data-label="CVG % (CI)">— (not estimated by CV-ANOVA)</td>
        </tr>
        {c.bootstrap ? (
          <tr>
            <th scope="row" data-label="Method">
              Bootstrap CI ({c.bootstrap.replicates}, seed {c.bootstrap.seed})
            </th>
            <td data-label="CVA % (CI)">{ci(c.bootstrap.cva_ci)}</td>
            <td data-label="CVI % (CI)">{ci(c.bootstrap.cvi_ci)}</td>
            <td data-label="CVG % (CI)">{ci(c.bootstrap.cvg_ci)}</td>
          </tr>
        ) : null}
      </tbody>
    </Table>
  );
}

function download(name: string, blob: Blob) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** The printable report: input, every step, the estimates, derived values, strata and each subject's plot. */
export function EstimationReport({
  e,
  fileName,
  onXlsx,
  draftButton,
}: {
  e: EstimationResponse;
  fileName: string;
  onXlsx: () => void;
  draftButton: React.ReactNode;
}) {
  const base = fileName.replace(/\.[^.]+$/, '') || 'estimation';
  const d = e.derived;
  const { design, missing } = e.input;
  return (
    <section aria-labelledby="report-heading" className="mt-4">
      <h2 className="h4" id="report-heading">
        Report: {fileName}
      </h2>
      <div className="d-flex flex-wrap gap-2 mb-3 d-print-none">
        <Button
          variant="outline-primary"
          size="sm"
          onClick={() =>
            download(
              `${base}-report.json`,
              new Blob([JSON.stringify(e, null, 2)], { type: 'application/json' }),
            )
          }
        >
          Download JSON
        </Button>
        <Button variant="outline-primary" size="sm" onClick={onXlsx}>
          Download xlsx
        </Button>
        <Button variant="outline-secondary" size="sm" onClick={() => window.print()}>
          Print
        </Button>
        {draftButton}
      </div>

      <h3 className="h5">Input</h3>
      <ul>
        <li>
          {e.input.rows} rows read ({e.input.format.toUpperCase()}); columns:{' '}
          {Object.entries(e.input.columns)
            .map(([k, v]) => `${k} ← ${v ?? '(none)'}`)
            .join(', ')}
        </li>
        <li>
          Before exclusions: {e.counts_before.subjects} subjects, {e.counts_before.samples} samples,{' '}
          {e.counts_before.results} results; kept: {e.n_subjects} subjects, {e.n_samples} samples,{' '}
          {e.n_results} results.
        </li>
        <li>
          Design: {design.balanced ? 'balanced' : 'unbalanced'} — {design.samples_per_subject.min}–
          {design.samples_per_subject.max} samples per subject, {design.replicates_per_sample.min}–
          {design.replicates_per_sample.max} replicates per sample, {design.samples_with_one_replicate}{' '}
          sample(s) with one replicate.
        </li>
        <li>
          Missing values: {missing.count} (left out, never imputed)
          {missing.count > 0
            ? `: ${missing.rows
                .slice(0, 20)
                .map((m) => `row ${m.row} (${m.subject}/${m.sample}/${m.replicate})`)
                .join(', ')}${missing.count > 20 ? ', …' : ''}`
            : ''}
        </li>
        {e.input.sampling ? (
          <li>
            Sampling (from the dates): median interval {num(e.input.sampling.interval_days, 2)} days, longest
            subject followed {num(e.input.sampling.span_days, 1)} days
            {e.input.sampling.earliest_time
              ? `, samples taken ${e.input.sampling.earliest_time}–${e.input.sampling.latest_time}`
              : ''}
            {e.input.sampling.unread > 0
              ? `; ${e.input.sampling.unread} date(s) not read (use YYYY-MM-DD)`
              : ''}
            .
          </li>
        ) : null}
        {e.input.notes.map((n) => (
          <li key={n}>{n}</li>
        ))}
        <li>
          Options: α = {e.options.alpha}; a replicate outlier removes{' '}
          {e.options.replicate_outlier === 'none'
            ? 'nothing (step off)'
            : `the ${e.options.replicate_outlier}`}
          ; within-subject outliers {e.options.sample_outlier ? 'on' : 'off'}; Reed{' '}
          {e.options.reed ? 'on' : 'off'}; bootstrap{' '}
          {e.options.bootstrap
            ? `${e.options.bootstrap.replicates} resamples, seed ${e.options.bootstrap.seed}`
            : 'off'}
          .
        </li>
      </ul>

      <h3 className="h5">Pipeline</h3>
      {/* One card per step on a phone: the decision stays on screen without scrolling sideways. */}
      <Table size="sm" bordered className="table-stack-phone" data-testid="estimation-pipeline">
        <caption>Each step in order, with its statistic, p-value and decision</caption>
        <thead>
          <tr>
            <th scope="col">Step</th>
            <th scope="col">Statistic</th>
            <th scope="col">p</th>
            <th scope="col">Decision</th>
          </tr>
        </thead>
        <tbody>
          {pipelineSteps(e, e.options).map((s, i) => (
            <tr key={i}>
              <th scope="row" className="fw-normal" data-label="Step">
                {s.step}
              </th>
              <td data-label="Statistic">{s.statistic}</td>
              <td data-label="p">{s.p}</td>
              <td data-label="Decision">
                {s.decision}
                {s.warning ? (
                  <strong className="d-block text-danger" data-testid="step-warning">
                    {s.warning}
                  </strong>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </Table>

      <h3 className="h5">Estimates</h3>
      <Estimates
        e={e}
        caption={`All subjects; grand mean ${num(e.grand_mean, 4)}; ${Math.round(100 * (1 - e.options.alpha))} % CIs`}
      />
      {/* One card per source on a phone: no mean square hidden behind a sideways scroll. */}
      <Table size="sm" bordered className="table-stack-phone" data-testid="estimation-anova">
        <caption>Nested ANOVA on the data kept</caption>
        <thead>
          <tr>
            <th scope="col">Source</th>
            <th scope="col">MS</th>
            <th scope="col">df</th>
          </tr>
        </thead>
        <tbody>
          {(
            [
              ['Between subjects', e.anova.between_subjects],
              ['Between samples (within subjects)', e.anova.between_samples],
              ['Replicates', e.anova.replicates],
            ] as const
          ).map(([label, ms]) => (
            <tr key={label}>
              <th scope="row" className="fw-normal" data-label="Source">
                {label}
              </th>
              <td data-label="MS">{num(ms.ms, 5)}</td>
              <td data-label="df">{num(ms.df, 2)}</td>
            </tr>
          ))}
        </tbody>
      </Table>
      <h3 className="h5">What follows</h3>
      <ul>
        <li>
          From the {d.source === 'cv_anova' ? 'CV-ANOVA' : 'classic'} estimates: index of individuality{' '}
          {num(d.ii)} (with CVA {num(d.ii_with_cva)}); RCV{' '}
          <span data-testid="report-rcv">
            {signedPercent(d.rcv.up)} % / {signedPercent(d.rcv.down)} %
          </span>{' '}
          (log-normal)
        </li>
        <li>
          Samples for a set point:{' '}
          {d.setpoint_samples.map((s) => `within ${s.within_percent} %: ${s.samples}`).join('; ')}
        </li>
        <li>
          APS imprecision (min / desirable / optimal): {num(d.aps.minimum.imprecision, 1)} /{' '}
          {num(d.aps.desirable.imprecision, 1)} / {num(d.aps.optimal.imprecision, 1)} %; bias{' '}
          {num(d.aps.minimum.bias, 1)} / {num(d.aps.desirable.bias, 1)} / {num(d.aps.optimal.bias, 1)} %
        </li>
        <li>CI of CVI a BIVAC assessor would expect of this design: {ci(d.design_cvi_ci)} %</li>
      </ul>
      {e.strata ? (
        <>
          <h3 className="h5">By group</h3>
          {Object.entries(e.strata).map(([group, s]) =>
            'error' in s ? (
              <p key={group}>
                Group {group}: not estimated — {s.error}
              </p>
            ) : (
              <Estimates
                key={group}
                e={s}
                caption={`Group ${group}: ${s.n_subjects} subjects, ${s.n_results} results`}
              />
            ),
          )}
        </>
      ) : null}
      <h3 className="h5">Each subject's results</h3>
      <SubjectPlots subjects={e.subjects} />
    </section>
  );
}
