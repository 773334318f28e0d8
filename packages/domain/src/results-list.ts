/**
 * A person's previous results typed into one box, as people type them: "78, 82, 80", "78 82 80",
 * "78;82;80", one per line, or with decimal commas ("78,5 80,1" or "78,5; 80,1"). A comma is a
 * decimal separator only when no other reading is possible (semicolons or line breaks separate the
 * values, or spaces do and every comma sits between two digits); otherwise commas separate values.
 */
export type ResultsListReading =
  { ok: true; values: number[]; format: string } | { ok: false; message: string };

const DECIMAL_COMMA = /^-?\d+,\d+$/;

export function readResultsList(text: string): ResultsListReading {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, message: 'Enter at least one previous result.' };
  let tokens: string[];
  let format: string;
  if (/[;\n]/.test(trimmed)) {
    tokens = trimmed.split(/[;\n]+/).flatMap((t) => t.trim().split(/\s+/));
    const decimal = tokens.some((t) => t.includes(','));
    tokens = tokens.map((t) => t.replace(',', '.'));
    format = decimal
      ? 'separated by semicolons or lines, decimal commas'
      : 'separated by semicolons or lines';
  } else {
    const bySpace = trimmed.split(/\s+/);
    if (bySpace.length > 1 && bySpace.every((t) => !t.includes(',') || DECIMAL_COMMA.test(t))) {
      const decimal = bySpace.some((t) => t.includes(','));
      tokens = bySpace.map((t) => t.replace(',', '.'));
      format = decimal ? 'separated by spaces, decimal commas' : 'separated by spaces';
    } else if (trimmed.includes(',')) {
      tokens = trimmed.split(',').map((t) => t.trim());
      format = 'separated by commas';
    } else {
      tokens = bySpace;
      format = 'one value';
    }
  }
  tokens = tokens.filter((t) => t !== '');
  const values: number[] = [];
  for (const t of tokens) {
    const n = /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(t) ? Number(t) : NaN;
    if (!Number.isFinite(n)) return { ok: false, message: `"${t}" is not a number.` };
    values.push(n);
  }
  if (values.length === 0) return { ok: false, message: 'Enter at least one previous result.' };
  return { ok: true, values, format };
}

/** "Read 3 results separated by commas: 78, 82, 80" — so the user sees how the box was understood. */
export function describeResultsReading(reading: Extract<ResultsListReading, { ok: true }>): string {
  const n = reading.values.length;
  const list = reading.values.map((v) => String(v)).join('; ');
  return `Read ${n} result${n === 1 ? '' : 's'} (${reading.format}): ${list}`;
}
