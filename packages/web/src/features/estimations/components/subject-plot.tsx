import type { EstimationResponse } from '@bvdb/contract';

type Subject = EstimationResponse['subjects'][number];
const collator = new Intl.Collator('en', { numeric: true });
const W = 220;
const H = 120;
const PAD = { l: 36, r: 8, t: 8, b: 22 };

const STEP_NAMES: Record<string, string> = {
  replicate_cochran: 'replicate outlier (Cochran)',
  sample_cochran: 'within-subject outlier (Cochran)',
  reed: "subject-mean outlier (Reed's criterion)",
};

interface Scale {
  min: number;
  max: number;
}

/** The range of some values, or null when there are none. */
function scaleOf(values: number[]): Scale | null {
  return values.length === 0 ? null : { min: Math.min(...values), max: Math.max(...values) };
}

/** What a panel says under it: the excluded results in words (visible, not only on hover). */
function exclusionsText(s: Subject): string | null {
  const out = s.points.filter((p) => p.excluded);
  if (out.length === 0) return null;
  if (out.length === s.points.length) {
    const steps = [...new Set(out.map((p) => STEP_NAMES[p.excluded!] ?? p.excluded!))];
    return `All results excluded: ${steps.join(', ')}.`;
  }
  return `Excluded: ${out
    .map(
      (p) =>
        `sample ${p.sample}, replicate ${p.replicate} (${p.value}; ${STEP_NAMES[p.excluded!] ?? p.excluded})`,
    )
    .join('; ')}.`;
}

/**
 * One subject's results by sample: kept points as dots, excluded ones as red crosses, on the scale
 * of its group of panels; a point beyond that scale sits on the edge, marked "off scale".
 */
function Panel({ s, samples, scale }: { s: Subject; samples: string[]; scale: Scale }) {
  const { min, max } = scale;
  const x = (sample: string) =>
    PAD.l + ((samples.indexOf(sample) + 0.5) / samples.length) * (W - PAD.l - PAD.r);
  const clamp = (v: number) => Math.min(Math.max(v, min), max);
  const y = (v: number) => PAD.t + (1 - (clamp(v) - min) / (max - min || 1)) * (H - PAD.t - PAD.b);
  const offScale = (v: number) => (v < min || v > max ? ' (off scale)' : '');
  const excluded = s.points.filter((p) => p.excluded).length;
  const label = `Subject ${s.subject}${s.group ? ` (${s.group})` : ''}: ${s.points.length} results${excluded ? `, ${excluded} excluded` : ''}`;
  const caption = exclusionsText(s);
  return (
    <figure className="m-0" data-testid={`subject-panel-${s.subject}`}>
      <svg viewBox={`0 0 ${W} ${H}`} width="100%" role="img" aria-label={label} className="border rounded">
        <text x={PAD.l} y={PAD.t + 4} fontSize="10" dominantBaseline="hanging">
          {s.subject}
          {s.group ? ` · ${s.group}` : ''}
        </text>
        <line x1={PAD.l} x2={PAD.l} y1={PAD.t} y2={H - PAD.b} stroke="#6c757d" />
        <line x1={PAD.l} x2={W - PAD.r} y1={H - PAD.b} y2={H - PAD.b} stroke="#6c757d" />
        <text x={PAD.l - 3} y={PAD.t + 6} fontSize="8" textAnchor="end" data-testid="y-max">
          {Number(max.toPrecision(3))}
        </text>
        <text x={PAD.l - 3} y={H - PAD.b} fontSize="8" textAnchor="end">
          {Number(min.toPrecision(3))}
        </text>
        {samples.map((sample) => (
          <text key={sample} x={x(sample)} y={H - 8} fontSize="8" textAnchor="middle">
            {samples.length <= 12 ? sample : ''}
          </text>
        ))}
        {s.points.map((p, i) =>
          p.excluded ? (
            <g key={i} stroke="#b02a37" strokeWidth="1.6">
              <title>{`Sample ${p.sample}, replicate ${p.replicate}: ${p.value}${offScale(p.value)} — excluded: ${STEP_NAMES[p.excluded]}`}</title>
              <line x1={x(p.sample) - 3} x2={x(p.sample) + 3} y1={y(p.value) - 3} y2={y(p.value) + 3} />
              <line x1={x(p.sample) - 3} x2={x(p.sample) + 3} y1={y(p.value) + 3} y2={y(p.value) - 3} />
            </g>
          ) : (
            <circle key={i} cx={x(p.sample)} cy={y(p.value)} r="2.6" fill="#0d6efd">
              <title>{`Sample ${p.sample}, replicate ${p.replicate}: ${p.value}`}</title>
            </circle>
          ),
        )}
      </svg>
      {caption ? <figcaption className="small text-danger">{caption}</figcaption> : null}
    </figure>
  );
}

const GRID = {
  display: 'grid',
  gridTemplateColumns: 'repeat(auto-fill, minmax(180px, 1fr))',
  gap: '0.5rem',
} as const;

/**
 * Each subject's results by sample, excluded results marked (issue 31 point 3). The kept subjects
 * share a scale set by their kept results only, so an excluded subject never flattens them into
 * lines (issue 42.7); the subjects excluded whole follow apart, on a scale of their own, labelled.
 */
export function SubjectPlots({ subjects }: { subjects: Subject[] }) {
  if (subjects.every((s) => s.points.length === 0)) return <p>No results to plot.</p>;
  const samples = [...new Set(subjects.flatMap((s) => s.points.map((p) => p.sample)))].sort(collator.compare);
  const wholeOut = (s: Subject) => s.points.length > 0 && s.points.every((p) => p.excluded);
  const kept = subjects.filter((s) => !wholeOut(s));
  const out = subjects.filter(wholeOut);
  const all = (list: Subject[]) => list.flatMap((s) => s.points.map((p) => p.value));
  const keptScale =
    scaleOf(kept.flatMap((s) => s.points.filter((p) => !p.excluded).map((p) => p.value))) ??
    scaleOf(all(kept));
  const outScale = scaleOf(all(out));
  return (
    <>
      <p className="small mb-2">
        <svg width="10" height="10" aria-hidden="true">
          <circle cx="5" cy="5" r="3" fill="#0d6efd" />
        </svg>{' '}
        kept{' '}
        <svg width="10" height="10" aria-hidden="true" stroke="#b02a37" strokeWidth="1.6">
          <line x1="2" x2="8" y1="2" y2="8" />
          <line x1="2" x2="8" y1="8" y2="2" />
        </svg>{' '}
        excluded (named under its panel). Samples on the x axis; the kept subjects share one y scale set by
        their kept results, and an excluded result beyond it sits on the edge.
      </p>
      {keptScale ? (
        <div style={GRID} data-testid="subject-plots-kept">
          {kept.map((s) => (
            <Panel key={s.subject} s={s} samples={samples} scale={keptScale} />
          ))}
        </div>
      ) : null}
      {outScale && out.length > 0 ? (
        <section aria-labelledby="excluded-subjects" className="mt-3" data-testid="subject-plots-excluded">
          <h4 className="h6" id="excluded-subjects">
            Excluded subjects ({out.length})
          </h4>
          <p className="small mb-2">
            Every result of these subjects was excluded; they are drawn apart, on a y scale of their own, so
            they do not set the scale of the kept subjects.
          </p>
          <div style={GRID}>
            {out.map((s) => (
              <Panel key={s.subject} s={s} samples={samples} scale={outScale} />
            ))}
          </div>
        </section>
      ) : null}
    </>
  );
}
