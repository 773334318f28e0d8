/**
 * RFC 4180 CSV (spec section 9): quoted fields, "" as an escaped quote, CRLF, LF or CR row breaks
 * (also inside quotes, where they belong to the field); no trailing empty row.
 */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let inQuotes = false;
  let i = 0;
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const endRow = () => {
    row.push(field);
    rows.push(row);
    row = [];
    field = '';
  };
  while (i < src.length) {
    const c = src[i]!;
    if (inQuotes) {
      if (c === '"') {
        if (src[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        inQuotes = false;
        i++;
        continue;
      }
      field += c;
      i++;
      continue;
    }
    if (c === '"' && field === '') {
      inQuotes = true;
      i++;
    } else if (c === ',') {
      row.push(field);
      field = '';
      i++;
    } else if (c === '\r') {
      endRow();
      i += src[i + 1] === '\n' ? 2 : 1;
    } else if (c === '\n') {
      endRow();
      i++;
    } else {
      field += c;
      i++;
    }
  }
  if (field !== '' || row.length > 0) endRow();
  return rows;
}

export type CsvDelimiter = ',' | '\t' | ';';

/** How often `d` occurs in `line` outside double quotes. */
function countOutsideQuotes(line: string, d: string): number {
  let n = 0;
  let quoted = false;
  for (const c of line) {
    if (c === '"') quoted = !quoted;
    else if (c === d && !quoted) n++;
  }
  return n;
}

/**
 * The delimiter of delimited text, read from its content whatever the file is called (issue 42.6):
 * of tab, semicolon and comma, the one the header row holds that the most of the first ten lines hold
 * as often as the header (then the most per line; ties in that order, so a tab- or
 * semicolon-separated file with decimal commas is not taken for comma-separated). Comma when none.
 * The same rule as papaparse's `guessDelimiter` (consistent field counts over a preview), kept small.
 */
export function detectDelimiter(text: string): CsvDelimiter {
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const lines = src
    .slice(0, 64 * 1024)
    .split(/\r\n|\n|\r/)
    .filter((l) => l.trim() !== '')
    .slice(0, 10);
  let best: CsvDelimiter = ',';
  let bestScore = 0;
  for (const d of ['\t', ';', ','] as const) {
    const counts = lines.map((l) => countOutsideQuotes(l, d));
    const header = counts[0] ?? 0;
    if (header === 0) continue;
    const score = counts.filter((c) => c === header).length * 1000 + Math.min(header, 999);
    if (score > bestScore) {
      best = d;
      bestScore = score;
    }
  }
  return best;
}
