import type { MetaInputRow, StatsResult } from '@bvdb/contract';
import { formatFixed, GRADE_WEIGHT } from '@bvdb/domain';
import Table from 'react-bootstrap/Table';
import { ErrorText } from '../../../components/state-views';
import { HeaderRow } from '../../../components/header-row';

export type Calculation = StatsResult & { source: 'built-in' | 'remote'; bvdb_rule?: StatsResult };

/** A study's CV or CI limit: 2 decimals, as the dataset summary shows them (spec section 9). */
const cell = (v: number | null) => (v === null ? 'NA' : formatFixed(v, 2));
/** The weighted median and its limits: 1 decimal, as the meta-analysis table shows them (spec section 9). */
const median = (v: number | null) => (v === null ? 'NA' : formatFixed(v, 1));
const UNABLE = 'Unable to Calculate';

/** Which limits the result carries, in words; never "95% CI" on its own (domain.md). */
export function methodText(method: Calculation['method'], n: number): string {
  switch (method) {
    case 'bootstrap':
      return `N = ${n} > 10: the limits are the 2.5th and 97.5th percentiles of 999 bootstrap weighted medians (seeded).`;
    case 'range':
      return `2 ≤ N = ${n} ≤ 10: the limits are the smallest and the largest study CV (a min–max range, not a 95% CI).`;
    case 'single':
      return 'N = 1: the weighted median is the study’s CV and the limits are its own CI.';
    case 'none':
      return 'N = 0: no usable study, so no result.';
  }
}

/** The steps of one calculation (CVI or CVG), from the rows sent to what the service answered. */
export function CalculationSteps({
  title,
  type,
  rows,
  result,
  failed,
}: {
  title: string;
  type: 'cvi' | 'cvg';
  rows: MetaInputRow[];
  result: Calculation | undefined;
  failed: boolean;
}) {
  const kept = rows.filter((r) => r.Include);
  const byStudy = new Map<string, number>();
  for (const r of kept) byStudy.set(r.ID, (byStudy.get(r.ID) ?? 0) + 1);
  const collapsed = [...byStudy.entries()].filter(([, n]) => n > 1);
  const v = (f: (r: Calculation) => string) => (failed || !result ? UNABLE : f(result));
  return (
    <section className="mb-4" aria-labelledby={`steps-${type}`}>
      <h3 className="h5" id={`steps-${type}`}>
        {title}
      </h3>
      {failed ? <ErrorText>Error: unable to calculate</ErrorText> : null}
      <h4 className="h6">Step 1: the rows sent to the statistics service</h4>
      <Table size="sm" bordered responsive>
        <caption className="visually-hidden">{title}: input rows</caption>
        <thead>
          <HeaderRow names={['ID', 'Include', 'Score', 'CV', 'CI_lower', 'CI_upper']} />
        </thead>
        <tbody>
          {rows.map((r, i) => (
            <tr key={i} className={r.Include ? '' : 'text-muted'}>
              <td>{r.ID}</td>
              <td>{r.Include ? 'TRUE' : 'FALSE'}</td>
              <td>{r.Score}</td>
              <td>{cell(r.CV)}</td>
              <td>{cell(r.CI_lower)}</td>
              <td>{cell(r.CI_upper)}</td>
            </tr>
          ))}
        </tbody>
      </Table>
      <h4 className="h6">Step 2: collapsing by study</h4>
      <p>
        {kept.length} of {rows.length} rows are included.{' '}
        {collapsed.length === 0
          ? 'Every study contributes one row, so nothing is collapsed.'
          : `Rows of one study (ID ${collapsed.map(([id, n]) => `${id}: ${n} rows`).join(', ')}) are collapsed into one: the weighted median (weights 1 / CI width) of CV, CI_lower and CI_upper, with the worst grade.`}
      </p>
      <h4 className="h6">Step 3: weights (grade factor / CI width)</h4>
      <Table size="sm" bordered responsive>
        <caption className="visually-hidden">{title}: study weights</caption>
        <thead>
          <HeaderRow
            names={[
              'Study ID',
              'Rows',
              'Grade',
              'Grade factor',
              'CV',
              'CI',
              'CI width',
              'Weight',
              'Normalised weight',
            ]}
          />
        </thead>
        <tbody>
          {failed || !result ? (
            <tr>
              <td colSpan={9}>{UNABLE}</td>
            </tr>
          ) : (
            result.weights.map((w) => {
              const factor = GRADE_WEIGHT[w.Score as keyof typeof GRADE_WEIGHT] ?? 0;
              const width = w.CI_upper - w.CI_lower;
              return (
                <tr key={w.ID} data-testid={`weight-${type}-${w.ID}`}>
                  <td>{w.ID}</td>
                  <td>{w.rows}</td>
                  <td>{w.Score}</td>
                  <td>{factor}</td>
                  <td>{cell(w.CV)}</td>
                  <td>
                    {cell(w.CI_lower)}–{cell(w.CI_upper)}
                  </td>
                  <td>{formatFixed(width, 4)}</td>
                  <td>{formatFixed(factor / width, 4)}</td>
                  <td>{formatFixed(w.weight * 100, 2)}%</td>
                </tr>
              );
            })
          )}
        </tbody>
      </Table>
      <h4 className="h6">Step 4: the weighted median and its limits</h4>
      <Table size="sm" bordered className="w-auto">
        <caption className="visually-hidden">{title}: result</caption>
        <thead>
          <HeaderRow names={['N', 'W.Median', 'Range_lower', 'Range_upper']} />
        </thead>
        <tbody>
          <tr data-testid={`result-${type}`}>
            <td>{v((r) => String(r.N))}</td>
            <td>{v((r) => median(r['W.Median']))}</td>
            <td>{v((r) => median(r.Range_lower))}</td>
            <td>{v((r) => median(r.Range_upper))}</td>
          </tr>
        </tbody>
      </Table>
      {result && !failed ? (
        <p className="small">
          {methodText(result.method, result.N)} Answered by the{' '}
          {result.source === 'remote' ? 'configured (STATS_URL)' : 'built-in'} statistics service.
        </p>
      ) : null}
      {result && !failed && result.bvdb_rule && differs(result, result.bvdb_rule) ? (
        <p className="small" data-testid={`bvdb-rule-${type}`}>
          bvdb publishes from these rows (grade D and zero-width CIs left out): N {result.bvdb_rule.N},
          W.Median {cell(result.bvdb_rule['W.Median'])}, range {cell(result.bvdb_rule.Range_lower)}–
          {cell(result.bvdb_rule.Range_upper)}.
        </p>
      ) : null}
    </section>
  );
}

/** The statistics service and bvdb's own rule disagree on these rows (grade D, zero-width CI). */
const differs = (a: StatsResult, b: StatsResult) =>
  a.N !== b.N ||
  a['W.Median'] !== b['W.Median'] ||
  a.Range_lower !== b.Range_lower ||
  a.Range_upper !== b.Range_upper;
