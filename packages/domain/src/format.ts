import { formatFixed } from './rounding.js';

/** Meta-analysis table: 1 decimal; a median of 0 (or none) reads "NA" (spec section 9). */
export function formatMetaValue(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value) || value === 0) return 'NA';
  return formatFixed(value, 1);
}

/** CI display (spec section 5): empty → 0, a non-number → "N/A", otherwise 2 decimals. */
export function formatCi(value: unknown): string {
  if (value === null || value === undefined || value === '') return formatFixed(0, 2);
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value.trim()) : NaN;
  if (!Number.isFinite(n)) return 'N/A';
  return formatFixed(n, 2);
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

function toDate(d: string | Date): Date | null {
  const date = d instanceof Date ? d : new Date(d);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** D/M/YYYY in UTC, no leading zeros (meta table, spec section 9); "" for an invalid date. */
export function formatDateDmy(d: string | Date): string {
  const date = toDate(d);
  return date ? `${date.getUTCDate()}/${date.getUTCMonth() + 1}/${date.getUTCFullYear()}` : '';
}

/**
 * A moment as D/M/YYYY HH:MM UTC, the meta table's date order with a 24-hour time (the change
 * history, issue 27.10): the same text in every browser, whatever its locale or time zone.
 */
export function formatDateTimeDmy(d: string | Date): string {
  const date = toDate(d);
  if (!date) return '';
  const two = (n: number) => String(n).padStart(2, '0');
  return `${formatDateDmy(date)} ${two(date.getUTCHours())}:${two(date.getUTCMinutes())} UTC`;
}

export function ordinal(n: number): string {
  const mod100 = n % 100;
  if (mod100 >= 11 && mod100 <= 13) return `${n}th`;
  switch (n % 10) {
    case 1:
      return `${n}st`;
    case 2:
      return `${n}nd`;
    case 3:
      return `${n}rd`;
    default:
      return `${n}th`;
  }
}

/** "MMMM Do YYYY" in UTC, e.g. "November 22nd 2026" (specifications table, spec section 9). */
export function formatDateLong(d: string | Date): string {
  const date = toDate(d);
  if (!date) return '';
  return `${MONTHS[date.getUTCMonth()]} ${ordinal(date.getUTCDate())} ${date.getUTCFullYear()}`;
}

/** "N per unit", or "No Sampling Intervals" when either part is missing (spec section 3). */
export function formatSamplingInterval(
  samplesPer: number | string | null | undefined,
  intervalUnits: string | null | undefined,
): string {
  const hasCount = samplesPer !== null && samplesPer !== undefined && String(samplesPer).trim() !== '';
  const hasUnit = intervalUnits !== null && intervalUnits !== undefined && intervalUnits.trim() !== '';
  if (!hasCount || !hasUnit) return 'No Sampling Intervals';
  const count =
    typeof samplesPer === 'number' ? String(Number(samplesPer.toPrecision(12))) : String(samplesPer).trim();
  return `${count} per ${intervalUnits.trim().toLowerCase()}`;
}

/**
 * Alternate names are stored by the live system as a list-like string: `["Creat", "Crea"]`,
 * `{Creat,Crea}` (a PostgreSQL array literal) or `Creat; Crea`. Any of these → a clean list.
 */
export function parseAlternateNames(raw: string | readonly string[] | null | undefined): string[] {
  if (raw === null || raw === undefined) return [];
  let items: string[];
  if (Array.isArray(raw)) {
    items = [...(raw as readonly string[])];
  } else {
    const text = (raw as string).trim();
    if (text === '') return [];
    if (text.startsWith('[')) {
      try {
        const parsed: unknown = JSON.parse(text);
        items = Array.isArray(parsed) ? parsed.map(String) : [text];
      } catch {
        items = text.slice(1, text.endsWith(']') ? -1 : undefined).split(',');
      }
    } else if (text.startsWith('{') && text.endsWith('}')) {
      items = text.slice(1, -1).split(',');
    } else {
      items = text.split(/[;\n|]|,(?![^(]*\))/);
    }
  }
  const seen = new Set<string>();
  const out: string[] = [];
  for (const item of items) {
    const clean = item
      .trim()
      .replace(/^["']|["']$/g, '')
      .trim();
    const key = clean.toLowerCase();
    if (clean && clean.toUpperCase() !== 'NULL' && !seen.has(key)) {
      seen.add(key);
      out.push(clean);
    }
  }
  return out;
}

/** Spec section 9: the first non-empty value among the keys sorted in reverse order. */
export function pickSubscript(obj: Record<string, unknown>): unknown {
  const keys = Object.keys(obj).sort().reverse();
  for (const key of keys) {
    const v = obj[key];
    if (v !== null && v !== undefined && !(typeof v === 'string' && v.trim() === '')) return v;
  }
  return undefined;
}
