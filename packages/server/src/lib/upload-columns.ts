import { AppError } from './app-error.js';

// The columns of an uploaded table (an estimation's raw results, a laboratory's extract), found once
// for the modules that read one (decision 100): the caller's mapping first, else a common name, and
// the cells' plain readings. It knows no module: the columns, their names and the advice are the caller's.

/** A cell as a sheet or a delimited text gives it. */
export type UploadCell = string | number | boolean | Date | null;

/** The columns a module reads, the names each is found by, and the advice when one is missing. */
export interface UploadColumns<C extends string> {
  columns: readonly C[];
  /** Header names accepted without a mapping, squashed (`squashHeader`), in order of preference. */
  aliases: Record<C, readonly string[]>;
  required: readonly C[];
  /** "Name the columns …": said after the header when a required column is missing. */
  nameThem: string;
}

/** A header compared lower-case with everything but letters and digits dropped ("Patient ID" = "patient_id"). */
export const squashHeader = (h: string): string => h.toLowerCase().replace(/[^a-z0-9]/g, '');

const listHeaders = (headers: readonly string[]) => headers.map((h) => `"${h}"`).join(', ') || 'empty';

/**
 * Which header each column is read from: the caller's mapping first (the header as written, else
 * squashed), else the first unused header of a common name. 400 naming the column for a mapped
 * header that is not there, or a required column not found.
 */
export function mapUploadColumns<C extends string>(
  headers: readonly string[],
  mapping: Partial<Record<C, string>>,
  spec: UploadColumns<C>,
): Partial<Record<C, number>> {
  const found: Partial<Record<C, number>> = {};
  const used = new Set<number>();
  for (const column of spec.columns) {
    const asked = mapping[column];
    if (asked === undefined || asked === '') continue;
    const i = headers.findIndex((h) => h === asked);
    const j = i >= 0 ? i : headers.findIndex((h) => squashHeader(h) === squashHeader(asked));
    if (j < 0) {
      throw new AppError(
        'bad_request',
        `The ${column} column "${asked}" is not in the header (${listHeaders(headers)})`,
        { fields: [{ path: `${column}_column`, message: 'not in the header' }] },
      );
    }
    found[column] = j;
    used.add(j);
  }
  for (const column of spec.columns) {
    if (found[column] !== undefined) continue;
    for (const alias of spec.aliases[column]) {
      const j = headers.findIndex((h, k) => !used.has(k) && squashHeader(h) === alias);
      if (j >= 0) {
        found[column] = j;
        used.add(j);
        break;
      }
    }
  }
  const lacking = spec.required.filter((c) => found[c] === undefined);
  if (lacking.length > 0) {
    throw new AppError(
      'bad_request',
      `No ${lacking.join(', ')} column: the header is ${listHeaders(headers)}. ${spec.nameThem}, or map them with ` +
        lacking.map((c) => `${c}_column`).join(', '),
      { fields: lacking.map((c) => ({ path: `${c}_column`, message: 'no column found' })) },
    );
  }
  return found;
}

/** A cell as text: trimmed, a date as ISO 8601, empty for none. */
export const cellText = (cell: UploadCell): string =>
  cell === null ? '' : cell instanceof Date ? cell.toISOString() : String(cell).trim();

/** "5,1": one comma between digits and no point, read as 5.1 where decimal commas are allowed. */
export const DECIMAL_COMMA = /^[-+]?\d+,\d+([eE][-+]?\d+)?$/;
/** A plain decimal number as text (no thousands separators, no hex, no "Infinity"). */
export const PLAIN_NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
