/**
 * The date and time of a routine result, as laboratory systems write them. Only differences between
 * two results of a patient matter, so every time is read as UTC (a change of summer time shifts an
 * interval by an hour, not a pair in or out of a 1–30-day window but at its very edge).
 */

/** Day-first (01/03/2024 = 1 March) or month-first (03/01/2024): one reading for the whole column. */
export type SlashOrder = 'day-first' | 'month-first';

const ISO =
  /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/;
const DMY = /^(\d{1,2})[./-](\d{1,2})[./-](\d{4})(?:[ T,]+(\d{1,2}):(\d{2})(?::(\d{2}))?)?$/;
const YMD_SLASH = /^(\d{4})\/(\d{1,2})\/(\d{1,2})(?:[ T]+(\d{1,2}):(\d{2})(?::(\d{2}))?)?$/;

function utc(y: number, mo: number, d: number, h = 0, mi = 0, s = 0): number | null {
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 24 || mi > 59 || s > 60) return null;
  const t = Date.UTC(y, mo - 1, d, h, mi, s);
  // 31 February rolls over into March: refused.
  return new Date(t).getUTCDate() === d ? t : null;
}

const n = (s: string | undefined) => (s === undefined ? 0 : Number(s));

/** Which order a column of d/m/y texts is in: a first part past 12 says day-first, a second past 12 month-first. */
export function slashOrderOf(texts: Iterable<string>): SlashOrder {
  for (const t of texts) {
    const m = DMY.exec(t);
    if (!m) continue;
    if (Number(m[1]) > 12) return 'day-first';
    if (Number(m[2]) > 12) return 'month-first';
  }
  return 'day-first';
}

/** Whether a column's texts use the d/m/y form at all (then the order is told in the notes). */
export const isSlashDate = (t: string): boolean => DMY.test(t);

/** A date-time text → ms since the epoch (UTC), or null when it cannot be read. */
export function parseTimeText(text: string, order: SlashOrder): number | null {
  const t = text.trim();
  let m = ISO.exec(t);
  if (m) {
    const base = utc(n(m[1]), n(m[2]), n(m[3]), n(m[4]), n(m[5]), n(m[6]));
    if (base === null || !m[7] || m[7] === 'Z') return base;
    const zone = /([+-])(\d{2}):?(\d{2})/.exec(m[7])!;
    const offset = (Number(zone[2]) * 60 + Number(zone[3])) * 60_000 * (zone[1] === '-' ? -1 : 1);
    return base - offset;
  }
  m = DMY.exec(t);
  if (m) {
    const [a, b] = [n(m[1]), n(m[2])];
    const [d, mo] = order === 'day-first' ? [a, b] : [b, a];
    return utc(n(m[3]), mo, d, n(m[4]), n(m[5]), n(m[6]));
  }
  m = YMD_SLASH.exec(t);
  if (m) return utc(n(m[1]), n(m[2]), n(m[3]), n(m[4]), n(m[5]), n(m[6]));
  return null;
}

/** Excel's serial day (1900 system: day 1 = 1900-01-01, with its 29 Feb 1900) → ms since the epoch. */
export function excelSerialToTime(serial: number): number | null {
  if (!Number.isFinite(serial) || serial < 1 || serial > 2_958_465) return null;
  return Math.round((serial - 25569) * 86_400_000);
}
