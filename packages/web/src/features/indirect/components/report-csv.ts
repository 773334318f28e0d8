import type { IndirectResponse } from '@bvdb/contract';

const METHOD_NAMES: Record<string, string> = {
  result_ratio: 'Result ratio (modified, Tukey)',
  expected_mean_squares: 'Expected mean squares',
  central_peak: 'Central-peak fit (Box–Cox)',
};
export const methodName = (m: string) => METHOD_NAMES[m] ?? m;

export const strataLabel = (key: Record<string, string>) =>
  Object.keys(key).length === 0
    ? 'All'
    : Object.entries(key)
        .map(([k, v]) => `${k === 'ageBand' ? 'age' : k}: ${v.replace('_', ' ')}`)
        .join(', ');

type Cell = string | number | null | undefined;
const cell = (v: Cell) => {
  const s =
    v === null || v === undefined
      ? ''
      : typeof v === 'number'
        ? String(Math.round(v * 1000) / 1000)
        : String(v);
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/** The report as CSV: the summary the page shows, counts and CVs only (no patient's row was kept). */
export function reportCsv(r: IndirectResponse): string {
  const lines: Cell[][] = [
    ['bvdb indirect estimate of biological variation (nothing of the uploaded file was kept)'],
    ['measurand', r.measurand?.name ?? ''],
    ['rows read', r.input.rows],
    ['unit', r.input.unit ?? ''],
    ['interval (days)', `${r.options.min_days}–${r.options.max_days}`],
    ['pairs per patient', r.options.pairs],
    ['CVA (%)', r.options.cva ?? ''],
    ['RCV probability', r.options.probability],
    [],
    [
      'stratum',
      'results',
      'patients',
      'pairs',
      'method',
      'pairs used',
      'CV_total (%)',
      'CVI (%)',
      'CVI low',
      'CVI high',
      'RCV model up',
      'RCV model down',
      'RCV formula up',
      'RCV formula down',
    ],
  ];
  for (const s of [r.all, ...r.strata]) {
    const base = [strataLabel(s.key), s.pairing.results, s.pairing.patients, s.pairing.pairs];
    if (s.methods.length === 0) lines.push([...base, s.note ?? 'no estimate']);
    for (const m of s.methods) {
      lines.push([
        ...base,
        methodName(m.method),
        m.pairs_used,
        m.cv_total,
        m.cvi,
        m.cvi_interval?.low,
        m.cvi_interval?.high,
        m.rcv_model.up,
        m.rcv_model.down,
        m.rcv_formula?.up,
        m.rcv_formula?.down,
      ]);
    }
  }
  if (r.published) {
    lines.push(
      [],
      ["bvdb's CVI", r.published.matrix, r.published.median, r.published.lower, r.published.upper],
    );
    lines.push([
      'method',
      'local CVI',
      'local ÷ published',
      'inside the published interval',
      'RCV up (local CVI)',
      'RCV down (local CVI)',
      'RCV up (published CVI)',
      'RCV down (published CVI)',
    ]);
    for (const c of r.comparison) {
      lines.push([
        methodName(c.method),
        c.local_cvi,
        c.ratio,
        c.inside === null ? '' : c.inside ? 'yes' : 'no',
        c.rcv_local?.up,
        c.rcv_local?.down,
        c.rcv_published?.up,
        c.rcv_published?.down,
      ]);
    }
  }
  return lines.map((l) => l.map(cell).join(',')).join('\r\n') + '\r\n';
}
