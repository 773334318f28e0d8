import {
  INDIRECT_COLUMNS,
  INDIRECT_HEADER_ALIASES,
  INDIRECT_MAX_ROWS,
  type IndirectColumn,
  type IndirectResponse,
} from '@bvdb/contract';
import type { RoutineResult } from '@bvdb/domain';
import { AppError } from '../../lib/app-error.js';
import {
  cellText,
  DECIMAL_COMMA,
  mapUploadColumns,
  PLAIN_NUMBER,
  squashHeader,
  type UploadColumns,
} from '../../lib/upload-columns.js';
import type { CellValue } from '../dataset-upload/index.js';
import { excelSerialToTime, isSlashDate, parseTimeText, slashOrderOf } from './extract-times.js';

// Reading a laboratory's extract (issue 46.1, 46.5). Every message here names columns, rows and
// counts, never a cell: a patient id, a value or a date never leaves this file (46.4).

export type ExtractMapping = Partial<Record<IndirectColumn, string>>;

/** The extract as the methods take it, and how it was read (counts only). */
export interface ReadExtract {
  results: RoutineResult[];
  input: IndirectResponse['input'];
}

type Step = IndirectResponse['input']['steps'][number];

const COLUMNS: UploadColumns<IndirectColumn> = {
  columns: INDIRECT_COLUMNS,
  aliases: INDIRECT_HEADER_ALIASES,
  required: ['patient', 'time', 'value'],
  nameThem: 'Name the columns patient, date-time, value and unit (sex, age and setting optional)',
};

/** Which header each column is read from: the caller's mapping first, else a common name. */
export const mapExtractColumns = (headers: readonly string[], mapping: ExtractMapping) =>
  mapUploadColumns(headers, mapping, COLUMNS);

/**
 * 413 for an extract past the rows one run reads: `rows` as counted, or, when reading stopped at the
 * first row past the bound (`max`), more than that.
 */
export function tooManyRows(rows: number | null, max = INDIRECT_MAX_ROWS): AppError {
  const has = rows === null ? `more than ${max.toLocaleString('en')}` : rows.toLocaleString('en');
  return new AppError(
    'payload_too_large',
    `The file has ${has} rows: at most ${max.toLocaleString('en')} are read in one run. Send a shorter period or one measurand.`,
    { fields: [{ path: 'file', message: 'too many rows' }] },
  );
}

const MALE = new Set(['m', 'male', 'man', 'men', 'masculine', 'boy', 'h', 'homme', 'mann']);
const FEMALE = new Set([
  'f',
  'female',
  'woman',
  'women',
  'feminine',
  'girl',
  'w',
  'femme',
  'frau',
  'k',
  'kvinne',
]);
function sexOf(text: string): RoutineResult['sex'] {
  const t = text.trim().toLowerCase();
  return MALE.has(t) ? 'male' : FEMALE.has(t) ? 'female' : undefined;
}
function settingOf(text: string): RoutineResult['setting'] {
  const t = squashHeader(text);
  if (!t) return undefined;
  if (/^(in|ip|inpatients?|hospital|ward|admitted|stationary|i)$/.test(t)) return 'inpatient';
  if (/^(out|op|outpatients?|clinic|ambulatory|ambulant|o|emergency|ed|er)$/.test(t)) return 'outpatient';
  if (/^(primary|primarycare|gp|generalpractice|generalpractitioner|community|pc|p)$/.test(t))
    return 'primary_care';
  return undefined;
}

function numberOf(cell: CellValue, decimalComma: boolean): number | null {
  if (typeof cell === 'number') return Number.isFinite(cell) ? cell : null;
  if (typeof cell !== 'string') return null;
  const typed = cell.trim();
  const text = decimalComma && DECIMAL_COMMA.test(typed) ? typed.replace(',', '.') : typed;
  return PLAIN_NUMBER.test(text) ? Number(text) : null;
}

const unitKey = (u: string) => u.toLowerCase().replace(/\s+/g, '').replace('µ', 'u').replace('μ', 'u');

/** A row as first read: its time still as written (the column's d/m order is decided on all of them). */
interface Pending {
  row: number;
  patient: string;
  time: string | number;
  value: number;
  sex?: RoutineResult['sex'];
  age?: number;
  setting?: RoutineResult['setting'];
}

/**
 * Turns rows into routine results, one row at a time (`add`), then `finish()`: dropped rows counted by
 * cause, mixed units refused naming them (422), unreadable date-times refused naming the rows (400).
 */
export class ExtractReader {
  private readonly at: Partial<Record<IndirectColumn, number>>;
  private readonly pending: Pending[] = [];
  private readonly units = new Map<string, { written: string; rows: number }>();
  private readonly dropped = new Map<string, number>();
  private readonly badTimes: number[] = [];
  private badTimeCount = 0;
  private rows = 0;
  private readonly slashTexts: string[] = [];

  constructor(
    private readonly headers: readonly string[],
    mapping: ExtractMapping,
    private readonly format: 'csv' | 'tsv' | 'xlsx',
    private readonly decimalComma: boolean,
    private readonly maxRows = INDIRECT_MAX_ROWS,
  ) {
    this.at = mapExtractColumns(headers, mapping);
  }

  private drop(step: string): void {
    this.dropped.set(step, (this.dropped.get(step) ?? 0) + 1);
  }

  add(row: number, cells: readonly CellValue[]): void {
    const cell = (c: IndirectColumn) => (this.at[c] === undefined ? null : (cells[this.at[c]] ?? null));
    if (cells.every((c) => c === null || (typeof c === 'string' && c.trim() === ''))) return;
    this.rows++;
    if (this.rows > this.maxRows) throw tooManyRows(null, this.maxRows);
    const patient = cellText(cell('patient'));
    if (!patient) return this.drop('no patient id');
    const timeCell = cell('time');
    let time: string | number;
    if (timeCell instanceof Date) time = timeCell.getTime();
    else if (typeof timeCell === 'number') {
      const t = excelSerialToTime(timeCell);
      if (t === null) return this.badTime(row);
      time = t;
    } else {
      const text = cellText(timeCell);
      if (!text) return this.drop('no date-time');
      if (isSlashDate(text) && this.slashTexts.length < 10_000) this.slashTexts.push(text);
      time = text;
    }
    const value = numberOf(cell('value'), this.decimalComma);
    if (value === null) return this.drop('value missing or not a number (e.g. below a limit)');
    if (value <= 0) return this.drop('value zero or negative (a ratio needs positive values)');
    if (this.at.unit !== undefined) {
      const unit = cellText(cell('unit'));
      if (!unit) return this.drop('no unit');
      const key = unitKey(unit);
      const seen = this.units.get(key);
      if (seen) seen.rows++;
      else this.units.set(key, { written: unit, rows: 1 });
    }
    const p: Pending = { row, patient, time, value };
    if (this.at.sex !== undefined) {
      const sex = sexOf(cellText(cell('sex')));
      if (sex) p.sex = sex;
    }
    if (this.at.age !== undefined) {
      const age = numberOf(cell('age'), this.decimalComma);
      if (age !== null && age >= 0 && age < 130) p.age = age;
    }
    if (this.at.setting !== undefined) {
      const setting = settingOf(cellText(cell('setting')));
      if (setting) p.setting = setting;
    }
    this.pending.push(p);
  }

  private badTime(row: number): void {
    this.badTimeCount++;
    if (this.badTimes.length < 10) this.badTimes.push(row);
  }

  finish(): ReadExtract {
    const header = (c: IndirectColumn) => (this.at[c] === undefined ? null : this.headers[this.at[c]]!);
    if (this.rows === 0) throw new AppError('bad_request', 'The file has a header but no rows of data');
    if (this.units.size > 1) {
      const named = [...this.units.values()]
        .sort((a, b) => b.rows - a.rows)
        .map((u) => `${u.written} (${u.rows.toLocaleString('en')} rows)`)
        .join(', ');
      throw new AppError(
        'unprocessable',
        `The file mixes units: ${named}. Convert the results to one unit, or send one file per unit`,
        { fields: [{ path: 'file', message: 'mixed units' }] },
      );
    }
    const order = slashOrderOf(this.slashTexts);
    const results: RoutineResult[] = [];
    for (const p of this.pending) {
      const time = typeof p.time === 'number' ? p.time : parseTimeText(p.time, order);
      if (time === null) {
        this.badTime(p.row);
        continue;
      }
      results.push({
        patient: p.patient,
        time,
        value: p.value,
        ...(p.sex ? { sex: p.sex } : {}),
        ...(p.age !== undefined ? { age: p.age } : {}),
        ...(p.setting ? { setting: p.setting } : {}),
      });
    }
    this.pending.length = 0;
    if (this.badTimeCount > 0) {
      const rows = this.badTimes.sort((a, b) => a - b);
      const more = this.badTimeCount - rows.length;
      throw new AppError(
        'bad_request',
        `The ${header('time')} column cannot be read as a date and time in ${this.badTimeCount.toLocaleString('en')} row${this.badTimeCount === 1 ? '' : 's'}: ` +
          `row${rows.length === 1 ? '' : 's'} ${rows.join(', ')}${more > 0 ? ` and ${more.toLocaleString('en')} more` : ''}. ` +
          'Write dates as 2024-03-01 08:30 or 01/03/2024 08:30 (or as spreadsheet dates)',
        { fields: [{ path: 'time_column', message: 'unreadable dates' }] },
      );
    }
    const steps: Step[] = [];
    let remaining = this.rows;
    for (const [step, removed] of this.dropped) {
      remaining -= removed;
      steps.push({ step, removed, remaining });
    }
    const notes: string[] = [];
    if (this.slashTexts.length > 0) {
      notes.push(
        `Dates written with slashes or dots were read ${order === 'day-first' ? 'day first (01/03 = 1 March)' : 'month first (03/01 = 1 March)'}.`,
      );
    }
    if (this.at.unit === undefined) notes.push('No unit column: the results are taken to be in one unit.');
    if (this.decimalComma) notes.push('Decimal commas were read as decimal points.');
    const unit = this.units.size === 1 ? [...this.units.values()][0]!.written : null;
    return {
      results,
      input: {
        format: this.format,
        rows: this.rows,
        columns: Object.fromEntries(INDIRECT_COLUMNS.map((c) => [c, header(c)])) as Record<
          IndirectColumn,
          string | null
        >,
        unit,
        steps,
        notes,
      },
    };
  }
}
