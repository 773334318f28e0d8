import type { MenuResponse, MenuTestResult } from '@bvdb/contract';
import { formatFixed } from '@bvdb/domain';
import { Link } from 'react-router';
import { paths } from '../../../lib/paths';

type Range = { lower: number; upper: number; limits: '95 % CI' | 'range' } | null;
type Judgement = 'optimal' | 'desirable' | 'minimum' | 'none' | null;

const num = (v: number, decimals: number) => formatFixed(v, decimals).replace(/^-/, '−');
const span = (r: NonNullable<Range>, decimals: number) =>
  r.lower < 0 || r.upper < 0
    ? `${num(r.lower, decimals)} to ${num(r.upper, decimals)}`
    : `${num(r.lower, decimals)}–${num(r.upper, decimals)}`;
const LIMITS_SHORT = { '95 % CI': 'CI', range: 'range' } as const;
const LIMITS_TITLE = {
  '95 % CI': "over the estimates' 95 % confidence limits",
  range: 'over the range of the study estimates',
} as const;
const LEVEL_LABEL = { optimal: 'Optimal', desirable: 'Desirable', minimum: 'Minimum' } as const;

/** A value with, in its own element, the range the estimates' limits give (issue 32.5). */
function Value({
  v,
  range,
  decimals = 1,
  why,
}: {
  v: number | null;
  range: Range;
  decimals?: number;
  why?: string;
}) {
  if (v === null) return <span className="text-body-secondary">—{why ? <small> ({why})</small> : null}</span>;
  return (
    <span className="wb-cell">
      <span className="wb-point">{num(v, decimals)}</span>
      {range ? (
        <small
          className="wb-range d-block text-body-secondary"
          data-limits={range.limits}
          title={LIMITS_TITLE[range.limits]}
        >
          {span(range, decimals)} ({LIMITS_SHORT[range.limits]})
        </small>
      ) : null}
    </span>
  );
}

const MEASURES = [
  ['imprecision', 'CVA'],
  ['bias', 'Bias'],
  ['total_error', 'TE'],
  ['mau', 'MU'],
] as const;

/**
 * The level a measure meets; where the interval meets a worse one than the point, both, so a reader
 * sees that the value meets the level at the point estimate but not across the limits (issue 32.5).
 */
function Meets({
  label,
  point,
  over,
  limits,
}: {
  label: string;
  point: Judgement;
  over: Judgement;
  limits: string;
}) {
  return (
    <span className="d-block menu-meets" data-measure={label} data-level={point ?? 'none'}>
      {label}: <strong>{point ?? '—'}</strong>
      {point && over && over !== point ? (
        <small className="d-block text-warning-emphasis menu-caveat">
          {point} at the point estimate; {over} across the {limits}
        </small>
      ) : null}
    </span>
  );
}

function limitsOf(t: MenuTestResult): string {
  const l = t.estimate?.limits ?? t.estimate_cvg?.limits;
  return l === 'range' ? 'range' : 'CI';
}

export function MenuSheetRow({
  t,
  level,
}: {
  t: MenuTestResult;
  level: MenuResponse['parameters']['level'];
}) {
  const spec = t.specs?.[level];
  return (
    <tr data-line={t.line} data-status={t.status}>
      <td data-label="Line">
        <div className="menu-cell">{t.line}</div>
      </td>
      <th scope="row" data-label="Test">
        <div className="menu-cell">
          {t.input.name ?? t.input.code}
          {t.input.unit ? <small className="text-body-secondary"> ({t.input.unit})</small> : null}
          {t.match ? (
            <small className="d-block">
              <Link to={t.estimate?.permalink ?? paths.analyte(t.match.measurand_id)}>
                {t.match.display_name}
              </Link>
              , {t.match.matrix}
            </small>
          ) : (
            <small className="d-block text-danger">{t.status}</small>
          )}
          {t.population ? (
            // Every line says whose estimates judged it (issue 47.3).
            <small className="d-block text-body-secondary" data-testid="line-population">
              {t.population.sentence}
            </small>
          ) : null}
        </div>
      </th>
      <td data-label="Lab CVA / bias / TE">
        <div className="menu-cell">
          {t.lab.cva === null ? '—' : num(t.lab.cva, 2)} /{' '}
          {t.input.bias === undefined ? '—' : num(t.input.bias, 2)} /{' '}
          {t.lab.te === null ? '—' : num(t.lab.te, 2)}
          {t.lab.te_source === 'computed' ? (
            <small className="d-block text-body-secondary">TE = |bias| + 1.65·CVA</small>
          ) : null}
        </div>
      </td>
      <td data-label="Meets">
        <div className="menu-cell">
          {t.aps_met
            ? MEASURES.map(([m, label]) => (
                <Meets
                  key={m}
                  label={label}
                  point={t.aps_met![m]}
                  over={t.aps_met_over_limits?.[m] ?? null}
                  limits={limitsOf(t)}
                />
              ))
            : '—'}
        </div>
      </td>
      <td data-label={`${LEVEL_LABEL[level]} TEa %`}>
        <div className="menu-cell">
          <Value
            v={spec?.total_error.value ?? null}
            range={spec?.total_error.range ?? null}
            why={spec?.total_error.why ?? undefined}
          />
        </div>
      </td>
      <td data-label={`Sigma (${level})`}>
        <div className="menu-cell">
          <Value v={t.sigma?.[level] ?? null} range={t.sigma_ranges?.[level] ?? null} decimals={2} />
        </div>
      </td>
      <td data-label="RCV up %">
        <div className="menu-cell">
          <Value v={t.rcv?.up ?? null} range={t.rcv_ranges?.up ?? null} />
        </div>
      </td>
      <td data-label="RCV down %">
        <div className="menu-cell">
          <Value v={t.rcv?.down ?? null} range={t.rcv_ranges?.down ?? null} />
        </div>
      </td>
      <td data-label="II">
        <div className="menu-cell">
          <Value v={t.ii} range={t.ii_range} decimals={2} />
        </div>
      </td>
      <td data-label="II with lab CVA">
        <div className="menu-cell">
          <Value v={t.ii_with_cva} range={t.ii_with_cva_range} decimals={2} />
        </div>
      </td>
      <td data-label="Personalised RI">
        <div className="menu-cell">
          {t.prri_useful === null ? '—' : t.prri_useful ? 'worth offering' : 'no'}
        </div>
      </td>
      <td data-label="Estimate used">
        <div className="menu-cell">
          {t.estimate ? (
            <>
              CVI {num(t.estimate.median, 2)}
              <small className="d-block text-body-secondary">
                {t.population
                  ? 'recomputed for the population'
                  : `id ${t.estimate.estimate_id ?? t.estimate.id}`}
                {t.estimate.version !== null ? `, v${t.estimate.version}` : ''}
              </small>
              {t.estimate_cvg ? (
                <small className="d-block text-body-secondary">
                  CVG {num(t.estimate_cvg.median, 2)}
                  {t.population ? '' : ` (id ${t.estimate_cvg.estimate_id ?? t.estimate_cvg.id}`}
                  {t.estimate_cvg.version !== null ? `, v${t.estimate_cvg.version}` : ''}
                  {t.population ? '' : ')'}
                </small>
              ) : null}
            </>
          ) : (
            '—'
          )}
        </div>
      </td>
    </tr>
  );
}

/** The sheet (issue 32.3): one row per test in the order given, dated, naming what it used. */
export function MenuSheet({ answer }: { answer: MenuResponse }) {
  const p = answer.parameters;
  return (
    <div className="menu-sheet">
      <p className="menu-sheet-stamp">
        Made on {new Date(p.generated_at).toUTCString()} · APS level shown: {LEVEL_LABEL[p.level]} · RCV
        probability {p.probability} (either direction, z {formatFixed(p.z, 3)}) · {answer.summary.tests}{' '}
        tests, {answer.summary.matched} matched
        {answer.population ? (
          <strong className="d-block" data-testid="menu-population">
            {answer.population.sentence}.
          </strong>
        ) : null}
      </p>
      <div className="table-responsive">
        <table className="table table-sm table-bordered table-stack-phone align-top">
          <caption>
            Each value with, under it, its range when the estimates&apos; lower and upper limits are used
            instead (&quot;CI&quot;: 95 % confidence limits; &quot;range&quot;: the range of the studies).
            Percentages; II and sigma two decimals.
          </caption>
          <thead>
            <tr>
              <th scope="col">Line</th>
              <th scope="col">Test → measurand</th>
              <th scope="col">Lab CVA / bias / TE %</th>
              <th scope="col">APS level met</th>
              <th scope="col">{LEVEL_LABEL[p.level]} TEa %</th>
              <th scope="col">Sigma ({p.level})</th>
              <th scope="col">RCV up %</th>
              <th scope="col">RCV down %</th>
              <th scope="col">II</th>
              <th scope="col">II with lab CVA</th>
              <th scope="col">Personalised RI (II &lt; 0.6)</th>
              <th scope="col">Estimate used</th>
            </tr>
          </thead>
          <tbody>
            {answer.tests.map((t) => (
              <MenuSheetRow key={t.line} t={t} level={p.level} />
            ))}
          </tbody>
        </table>
      </div>
      <details className="small" open>
        <summary>Sources</summary>
        <ul>
          {Object.entries(answer.sources).map(([k, v]) => (
            <li key={k}>
              <strong>{k}</strong>: {v}
            </li>
          ))}
        </ul>
      </details>
    </div>
  );
}
