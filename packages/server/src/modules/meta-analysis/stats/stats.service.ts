import { StatsRowSchema, type StatsResult, type StatsRow } from '@bvdb/contract';
import { metaAnalyse, parseCsv, roundHalfUp } from '@bvdb/domain';
import { AppError } from '../../lib/app-error.js';

const COLUMNS = ['ID', 'Include', 'Score', 'CV', 'CI_lower', 'CI_upper'] as const;

/** CSV text (with a header row) → row objects keyed by the header, as the R service reads them. */
function rowsFromCsv(text: string): Record<string, string>[] {
  const table = parseCsv(text).filter((r) => r.some((c) => c.trim() !== ''));
  const header = table[0]?.map((h) => h.trim().replace(/^"|"$/g, ''));
  if (!header) throw new AppError('bad_request', 'The CSV body is empty');
  const missing = COLUMNS.filter((c) => !header.includes(c));
  if (missing.length > 0)
    throw new AppError('bad_request', `The CSV header lacks column(s): ${missing.join(', ')}`);
  return table.slice(1).map((cells) => Object.fromEntries(header.map((h, i) => [h, cells[i] ?? ''])));
}

function rawRows(body: unknown): unknown[] {
  if (typeof body === 'string') return rowsFromCsv(body);
  if (Array.isArray(body)) return body;
  if (body && typeof body === 'object' && Array.isArray((body as { rows?: unknown }).rows)) {
    return (body as { rows: unknown[] }).rows;
  }
  throw new AppError(
    'bad_request',
    'Send the rows as a JSON array of objects, as {"rows": [...]}, or as CSV text (Content-Type: text/csv)',
  );
}

/** Validates every row and names the first bad row and field (rows are numbered from 1). */
export function parseStatsRows(body: unknown): StatsRow[] {
  const rows = rawRows(body);
  if (rows.length > 100_000) throw new AppError('bad_request', 'At most 100000 rows per request');
  return rows.map((raw, i) => {
    const parsed = StatsRowSchema.safeParse(raw);
    if (!parsed.success) {
      const fields = parsed.error.issues.map((issue) => ({
        path: `row ${i + 1}.${issue.path.join('.') || '(row)'}`,
        message: issue.message,
      }));
      throw new AppError(
        'bad_request',
        `Row ${i + 1}: ${fields.map((f) => `${f.path.split('.').slice(1).join('.')} ${f.message}`).join('; ')}`,
        {
          fields,
        },
      );
    }
    return parsed.data;
  });
}

const r4 = (v: number | null) => (v === null ? null : roundHalfUp(v, 4));

export function runMetacalculation(rows: StatsRow[], seed?: number): StatsResult {
  const result = metaAnalyse(
    rows.map((r) => ({
      id: r.ID,
      include: r.Include,
      score: r.Score,
      cv: r.CV,
      ciLower: r.CI_lower,
      ciUpper: r.CI_upper,
    })),
    seed !== undefined ? { seed } : {},
  );
  return {
    N: result.n,
    'W.Median': r4(result.weightedMedian),
    Range_lower: r4(result.rangeLower),
    Range_upper: r4(result.rangeUpper),
    method: result.method,
    seed: result.seed,
    weights: result.studies.map((s) => ({
      ID: s.id,
      Score: s.grade,
      CV: roundHalfUp(s.cv, 4),
      CI_lower: roundHalfUp(s.ciLower, 4),
      CI_upper: roundHalfUp(s.ciUpper, 4),
      weight: roundHalfUp(s.normalisedWeight, 6),
      rows: s.rowCount,
    })),
  };
}
