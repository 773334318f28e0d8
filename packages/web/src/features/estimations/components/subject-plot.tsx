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

/** One subject's results by sample: kept points as dots, excluded ones as red crosses (scale shared by all panels). */
function Panel({ s, samples, min, max }: { s: Subject; samples: string[]; min: number; max: number }) {
  const x = (sample: string) =>
    PAD.l + ((samples.indexOf(sample) + 0.5) / samples.length) * (W - PAD.l - PAD.r);
  const y = (v: number) => PAD.t + (1 - (v - min) / (max - min || 1)) * (H - PAD.t - PAD.b);
  const excluded = s.points.filter((p) => p.excluded).length;
  const label = `Subject ${s.subject}${s.group ? ` (${s.group})` : ''}: ${s.points.length} results${excluded ? `, ${excluded} excluded` : ''}`;
  return (
    <figure className="m-0">
      <svg viewBox={`0 0 ${W} ${H}`} width="100%" role="img" aria-label={label} className="border rounded">
        <text x={PAD.l} y={PAD.t + 4} fontSize="10" dominantBaseline="hanging">
          {s.subject}
          {s.group ? ` · ${s.group}` : ''}
        </text>
        <line x1={PAD.l} x2={PAD.l} y1={PAD.t} y2={H - PAD.b} stroke="#6c757d" />
        <line x1={PAD.l} x2={W - PAD.r} y1={H - PAD.b} y2={H - PAD.b} stroke="#6c757d" />
        <text x={PAD.l - 3} y={PAD.t + 6} fontSize="8" textAnchor="end">
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
              <title>{`Sample ${p.sample}, replicate ${p.replicate}: ${p.value} — excluded: ${STEP_NAMES[p.excluded]}`}</title>
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
    </figure>
  );
}

/** Each subject's results by sample, excluded results marked (issue 31 point 3). */
export function SubjectPlots({ subjects }: { subjects: Subject[] }) {
  const values = subjects.flatMap((s) => s.points.map((p) => p.value));
  if (values.length === 0) return <p>No results to plot.</p>;
  const samples = [...new Set(subjects.flatMap((s) => s.points.map((p) => p.sample)))].sort(collator.compare);
  const min = Math.min(...values);
  const max = Math.max(...values);
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
        excluded (hover or focus a point for the step). Samples on the x axis, one shared y scale.
      </p>
      <div
        style={{
          display: 'grid',
          gridTemplateColumns: 'repeat(auto-fill, minmax(180px, 1fr))',
          gap: '0.5rem',
        }}
      >
        {subjects.map((s) => (
          <Panel key={s.subject} s={s} samples={samples} min={min} max={max} />
        ))}
      </div>
    </>
  );
}
