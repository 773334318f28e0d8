import type { EstimateVersion } from '@bvdb/contract';
import { describeVersionChange, formatDateDmy, formatFixed } from '@bvdb/domain';
import { useState } from 'react';
import { ErrorText, Loading } from '../../../components/state-views';
import { useEstimateHistory } from '../api/get-estimate-history';

// viewBox units: the SVG scales to its container (375 px phones included), like the forest plot.
const W = 420;
const H = 170;
const LEFT = 44;
const RIGHT = 410;
const TOP = 12;
const BOTTOM = 140;

const CAUSES: Record<EstimateVersion['cause']['kind'], string> = {
  dataset: 'a dataset changed',
  appraisal: 'an appraisal was finalised',
  import: 'an import',
  lookup: 'a recompute after a matrix change',
  initial: 'the value when the history began',
};

/** Who made a change, in words ("by an administrator", never "by a admin": issue 42.9). */
const ROLE_TEXT: Record<string, string> = {
  admin: 'an administrator',
  curator: 'a curator',
  assessor: 'an assessor',
  system: 'the system',
};

/** "a dataset changed (DEMO-171), by a curator". */
export function causeText(v: EstimateVersion, labelOf: (datasetId: number) => string): string {
  const what = CAUSES[v.cause.kind];
  const which = v.cause.dataset_id !== undefined ? ` (${labelOf(v.cause.dataset_id)})` : '';
  const role = ROLE_TEXT[v.cause.role] ?? `a ${v.cause.role}`;
  return `${what}${which}, by ${role}`;
}

/** The value and its limits over time: a step line for the median, a band for the limits. */
function HistoryPlot({ versions, label }: { versions: EstimateVersion[]; label: string }) {
  const shown = versions.filter((v) => !v.withdrawn && v.median !== null).reverse();
  if (shown.length === 0) return null;
  const times = shown.map((v) => new Date(v.computed_at).getTime());
  const now = Math.max(Date.now(), ...times);
  const t0 = Math.min(...times);
  const span = Math.max(now - t0, 1);
  const values = shown.flatMap((v) => [v.lower ?? v.median!, v.upper ?? v.median!, v.median!]);
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const pad = Math.max((hi - lo) * 0.1, 0.5);
  const [yMin, yMax] = [Math.max(0, lo - pad), hi + pad];
  const x = (t: number) => LEFT + ((t - t0) / span) * (RIGHT - LEFT);
  const y = (v: number) => BOTTOM - ((v - yMin) / (yMax - yMin)) * (BOTTOM - TOP);
  // Each version holds until the next one (the last until now).
  const steps = shown.map((v, i) => ({ v, from: times[i]!, to: times[i + 1] ?? now }));
  return (
    <svg
      viewBox={`0 0 ${W} ${H}`}
      width="100%"
      role="img"
      aria-label={`${label} over time: ${shown.length} ${shown.length === 1 ? 'value' : 'values'}; the list below has the numbers`}
      fontSize={13}
      style={{ display: 'block', maxWidth: 520 }}
      data-testid="history-plot"
    >
      {[yMin, (yMin + yMax) / 2, yMax].map((t) => (
        <g key={t}>
          <line x1={LEFT} x2={RIGHT} y1={y(t)} y2={y(t)} stroke="#e3e3e3" />
          <text x={LEFT - 4} y={y(t)} dy="0.35em" textAnchor="end">
            {formatFixed(t, 1)}
          </text>
        </g>
      ))}
      {steps.map(({ v, from, to }) => (
        <g key={v.version}>
          {v.lower !== null && v.upper !== null ? (
            <rect
              x={x(from)}
              width={Math.max(x(to) - x(from), 2)}
              y={y(v.upper)}
              height={Math.max(y(v.lower) - y(v.upper), 1)}
              fill="#0d6efd"
              fillOpacity={0.15}
            />
          ) : null}
          <line
            x1={x(from)}
            x2={Math.max(x(to), x(from) + 2)}
            y1={y(v.median!)}
            y2={y(v.median!)}
            stroke="#0d6efd"
            strokeWidth={2}
          />
          <circle cx={x(from)} cy={y(v.median!)} r={3.5} fill="#0d6efd" />
        </g>
      ))}
      <text x={LEFT} y={H - 10}>
        {formatDateDmy(new Date(t0).toISOString())}
      </text>
      <text x={RIGHT} y={H - 10} textAnchor="end">
        {formatDateDmy(new Date(now).toISOString())}
      </text>
      <text x={LEFT} y={TOP - 2} fontSize={11} fill="#6c757d">
        CV %
      </text>
    </svg>
  );
}

const limitsText = (v: EstimateVersion) =>
  v.lower !== null && v.upper !== null
    ? ` (${formatFixed(v.lower, 1)}–${formatFixed(v.upper, 1)}${v.limits === 'ci' ? ', 95 % CI' : v.limits === 'range' ? ', range' : ''})`
    : '';

/** One estimate's history: which estimate, the version the page shows, how to name it and its datasets. */
interface HistoryProps {
  estimateId: number;
  version: number | null;
  label: string;
  labelOf: (datasetId: number) => string;
}

function HistoryBody({ estimateId, version, label, labelOf }: HistoryProps) {
  const history = useEstimateHistory(estimateId, version);
  if (history.isPending) return <Loading />;
  if (history.error) return <ErrorText>Error: {history.error.message}</ErrorText>;
  const versions = history.data.data;
  if (versions.length === 0) return <p className="small mb-0">No history yet.</p>;
  return (
    <>
      <HistoryPlot versions={versions} label={label} />
      <ol reversed className="small ps-4 mb-0" data-testid="history-list">
        {versions.map((v, i) => (
          <li key={v.version} data-testid={`history-version-${v.version}`}>
            <strong>Version {v.version}</strong>, {formatDateDmy(v.computed_at)}:{' '}
            {v.withdrawn
              ? 'not shown'
              : `${formatFixed(v.median ?? 0, 1)}%${limitsText(v)}, N = ${v.number_used}`}
            <br />
            <span>{describeVersionChange(versions[i + 1] ?? null, v, labelOf)}</span>
            <span className="text-body-secondary"> · {causeText(v, labelOf)}</span>
          </li>
        ))}
      </ol>
    </>
  );
}

/**
 * The "History" of one estimate (issue 29.5): a disclosure that reads the versions when opened (the
 * measurand page's first load stays as it was), with a small plot of the value and its limits over
 * time and the list of changes with the inputs' difference.
 */
export function EstimateHistory({ estimateId, version, label, labelOf }: HistoryProps) {
  const [open, setOpen] = useState(false);
  return (
    <details
      className="mb-2"
      data-testid={`history-${estimateId}`}
      onToggle={(e) => setOpen(e.currentTarget.open)}
    >
      <summary>
        {label}
        {version !== null ? ` · version ${version}` : ''}
      </summary>
      {open ? (
        <div className="mt-2">
          <HistoryBody estimateId={estimateId} version={version} label={label} labelOf={labelOf} />
        </div>
      ) : null}
    </details>
  );
}
