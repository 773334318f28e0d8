import type { MetaRecord } from '@bvdb/contract';
import { formatFixed } from '@bvdb/domain';
import { useId, useMemo } from 'react';
import Table from 'react-bootstrap/Table';
import { methodNote } from '../meta-summary';
import { axisTicks, forestStudiesOf, type ForestStudy } from './forest-rows';

// Geometry in viewBox units: the SVG scales to its container's width, so text stays about 12 px on a
// 375 px phone (viewBox 420 wide) and is capped on wide screens by the figure's max width.
const W = 420;
const ROW = 26;
const TOP = 8;
const LEFT = 46;
const RIGHT = 300;
const FONT = 15;

const pct = (w: number) => `${formatFixed(w * 100, 1)}%`;
const signed = (v: number) => (v > 0 ? '+' : v < 0 ? '−' : '') + formatFixed(Math.abs(v), 2);

export function forestTitleOf(meta: Pick<MetaRecord, 'var_type' | 'matrix'>): string {
  return `${meta.var_type === ':cvi' ? 'Within-subject (CVI)' : 'Between-subject (CVG)'}, ${meta.matrix}`;
}

function ForestSvg({ meta, studies }: { meta: MetaRecord; studies: ForestStudy[] }) {
  const max = Math.max(...studies.map((s) => s.ciUpper), meta.upper ?? 0, meta.median ?? 0);
  const min = Math.min(...studies.map((s) => s.ciLower), meta.lower ?? Infinity);
  const ticks = axisTicks(min, max);
  const xMin = ticks[0]!;
  const xMax = ticks[ticks.length - 1]!;
  const x = (v: number) => LEFT + ((Math.max(xMin, v) - xMin) / (xMax - xMin)) * (RIGHT - LEFT);
  const pooledY = TOP + (studies.length + 0.5) * ROW;
  const axisY = TOP + (studies.length + 1.3) * ROW;
  const height = axisY + 40;
  const maxWeight = Math.max(...studies.map((s) => s.weight), 0);
  return (
    <svg
      viewBox={`0 0 ${W} ${height}`}
      width="100%"
      role="img"
      aria-label={`Forest plot of ${studies.length} studies, ${forestTitleOf(meta)}: the numbers are in the table below`}
      fontSize={FONT}
      style={{ display: 'block', maxWidth: 520 }}
    >
      {ticks.map((t) => (
        <line key={t} x1={x(t)} x2={x(t)} y1={TOP} y2={axisY} stroke="#e3e3e3" />
      ))}
      {meta.median !== null ? (
        <line
          x1={x(meta.median)}
          x2={x(meta.median)}
          y1={TOP}
          y2={axisY}
          stroke="#6c757d"
          strokeDasharray="4 3"
          data-testid="forest-median-line"
        />
      ) : null}
      {studies.map((s, i) => {
        const y = TOP + (i + 0.5) * ROW;
        // Marker area proportional to weight, as in the usual forest plot.
        const side = 4 + 10 * Math.sqrt(maxWeight > 0 ? s.weight / maxWeight : 0);
        return (
          <g key={s.id} data-testid="forest-row">
            <text x={LEFT - 6} y={y} dy="0.35em" textAnchor="end">
              {i + 1}
            </text>
            <line x1={x(s.ciLower)} x2={x(s.ciUpper)} y1={y} y2={y} stroke="#212529" strokeWidth={1.5} />
            <rect x={x(s.cv) - side / 2} y={y - side / 2} width={side} height={side} fill="#0d6efd" />
            <text x={RIGHT + 10} y={y} dy="0.35em">
              {s.grade} · {pct(s.weight)}
            </text>
          </g>
        );
      })}
      {meta.median !== null ? (
        <g data-testid="forest-pooled">
          <text x={LEFT - 6} y={pooledY} dy="0.35em" textAnchor="end" fontWeight="bold">
            WM
          </text>
          <polygon
            points={[
              [x(meta.lower ?? meta.median), pooledY],
              [x(meta.median), pooledY - 7],
              [x(meta.upper ?? meta.median), pooledY],
              [x(meta.median), pooledY + 7],
            ]
              .map((p) => p.join(','))
              .join(' ')}
            fill="#dc3545"
          />
          <text x={RIGHT + 10} y={pooledY} dy="0.35em" fontWeight="bold">
            {formatFixed(meta.median, 1)}
          </text>
        </g>
      ) : null}
      <line x1={LEFT} x2={RIGHT} y1={axisY} y2={axisY} stroke="#212529" />
      {ticks.map((t) => (
        <text key={t} x={x(t)} y={axisY + 17} textAnchor="middle">
          {t}
        </text>
      ))}
      <text x={(LEFT + RIGHT) / 2} y={axisY + 34} textAnchor="middle">
        CV (%)
      </text>
      <text x={RIGHT + 10} y={axisY + 32} fontSize={FONT - 2}>
        grade · weight
      </text>
    </svg>
  );
}

/**
 * The forest plot of one meta-analysis result: each study's CV with its CI, marker size by weight,
 * grade and weight at the right, the pooled weighted median as a diamond spanning its limits; then the
 * same numbers as a table and the leave-one-out table (the weighted median without each study).
 */
export function ForestPlotFigure({ meta }: { meta: MetaRecord }) {
  const studies = useMemo(() => forestStudiesOf(meta), [meta]);
  const captionId = useId();
  const title = forestTitleOf(meta);
  if (studies.length === 0) return null;
  const biggest = studies.reduce<ForestStudy | null>(
    (top, s) =>
      s.shift !== null && (top === null || Math.abs(s.shift) > Math.abs(top.shift ?? 0)) ? s : top,
    null,
  );
  return (
    <figure
      aria-labelledby={captionId}
      className="mb-4"
      style={{ maxWidth: 720 }}
      data-testid={`forest-${meta.matrix}-${meta.var_type.slice(1)}`}
    >
      <figcaption id={captionId} className="fw-semibold mb-1">
        Forest plot — {title}
      </figcaption>
      <ForestSvg meta={meta} studies={studies} />
      <p className="small text-muted mb-2">
        Squares: each study&apos;s CV (size by weight) with its 95% CI; diamond: the weighted median (WM) and
        its limits ({methodNote(meta)}); dashed line: the weighted median.
      </p>
      {/* A scrolling region a keyboard can reach (axe scrollable-region-focusable, issue 27.10). */}
      <div
        className="table-responsive mb-2"
        tabIndex={0}
        role="region"
        aria-label={`Forest plot data — ${title}`}
      >
        <Table size="sm" bordered className="small mb-0">
          <caption className="caption-top">Forest plot data — {title}</caption>
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">Study</th>
              <th scope="col">Grade</th>
              <th scope="col">CV (%)</th>
              <th scope="col">95% CI</th>
              <th scope="col">Weight</th>
            </tr>
          </thead>
          <tbody>
            {studies.map((s, i) => (
              <tr key={s.id}>
                <td>{i + 1}</td>
                <th scope="row" className="fw-normal">
                  {s.title}
                  {s.rowCount > 1 ? ` (${s.rowCount} subgroups pooled)` : ''}
                </th>
                <td>{s.grade}</td>
                <td>{formatFixed(s.cv, 1)}</td>
                <td>
                  {formatFixed(s.ciLower, 1)}–{formatFixed(s.ciUpper, 1)}
                </td>
                <td>{pct(s.weight)}</td>
              </tr>
            ))}
          </tbody>
          {meta.median !== null ? (
            <tfoot>
              <tr className="fw-semibold">
                <td>WM</td>
                <th scope="row">Weighted median</th>
                <td />
                <td>{formatFixed(meta.median, 1)}</td>
                <td>
                  {formatFixed(meta.lower ?? meta.median, 1)}–{formatFixed(meta.upper ?? meta.median, 1)}
                </td>
                <td>100%</td>
              </tr>
            </tfoot>
          ) : null}
        </Table>
      </div>
      {studies.length > 1 ? (
        <div className="table-responsive" tabIndex={0} role="region" aria-label={`Leave-one-out — ${title}`}>
          <Table size="sm" bordered className="small mb-0">
            <caption className="caption-top">
              Leave-one-out — the weighted median without each study ({title})
            </caption>
            <thead>
              <tr>
                <th scope="col">#</th>
                <th scope="col">Study left out</th>
                <th scope="col">Weighted median without it (%)</th>
                <th scope="col">Change</th>
              </tr>
            </thead>
            <tbody>
              {studies.map((s, i) => (
                <tr key={s.id} className={s === biggest ? 'fw-semibold' : undefined}>
                  <td>{i + 1}</td>
                  <th scope="row" className="fw-normal">
                    {s.title}
                    {s === biggest ? ' (moves it most)' : ''}
                  </th>
                  <td>{s.withoutIt === null ? 'NA' : formatFixed(s.withoutIt, 2)}</td>
                  <td>{s.shift === null ? 'NA' : signed(s.shift)}</td>
                </tr>
              ))}
            </tbody>
          </Table>
        </div>
      ) : null}
    </figure>
  );
}
