import { INDIRECT_MAX_ROWS, type IndirectResponse } from '@bvdb/contract';
import { detectDelimiter, DomainInputError, estimateIndirect, type IndirectOptions } from '@bvdb/domain';
import { CsvError, parse } from 'csv-parse/sync';
import { AppError } from '../../lib/app-error.js';
import {
  bufferOf,
  isWorkbookUpload,
  isZip,
  readWorkbookUpload,
  uploadedText,
} from '../../lib/upload-reader.js';
import { SheetError, streamUploadedSheet } from '../dataset-upload/index.js';
import { ExtractReader, tooManyRows, type ExtractMapping, type ReadExtract } from './extract-input.js';
import { presentStratum } from './indirect.presenter.js';

/** One request's work, as the thread receives it: the file's bytes, the columns and the options. */
export interface IndirectTask {
  bytes: Uint8Array;
  fileName: string | undefined;
  mapping: ExtractMapping;
  options: IndirectOptions;
}

/** What the thread answers: how the file was read and the estimate, counts and summaries only. */
export type IndirectRun = Pick<IndirectResponse, 'input' | 'all' | 'strata'>;

/** Lines that hold something, counted on the bytes before anything is parsed (the 413 comes first). */
function countDataLines(bytes: Buffer): number {
  let lines = 0;
  let blank = true;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b === 0x0a || b === 0x0d) {
      if (!blank) lines++;
      blank = true;
    } else if (blank && b !== 0x20 && b !== 0x09 && b !== 0x2c && b !== 0x3b) blank = false;
  }
  if (!blank) lines++;
  return Math.max(0, lines - 1);
}

function readText(bytes: Buffer, mapping: ExtractMapping): ReadExtract {
  const rows = countDataLines(bytes);
  if (rows > INDIRECT_MAX_ROWS) throw tooManyRows(rows);
  const text = uploadedText(bytes);
  if (text.includes('\u0000')) throw new AppError('bad_request', 'The file is not text (it holds NUL bytes)');
  const delimiter = detectDelimiter(text);
  const format = delimiter === '\t' ? 'tsv' : 'csv';
  let reader: ExtractReader | null = null;
  try {
    parse(text, {
      bom: true,
      delimiter,
      relax_column_count: true,
      relax_quotes: true,
      record_delimiter: ['\r\n', '\n', '\r'],
      skip_empty_lines: true,
      on_record: (record: string[], context) => {
        if (!reader) {
          const headers = record.map((h) => h.trim());
          if (headers.every((h) => !h)) throw new AppError('bad_request', 'The file has no header row');
          reader = new ExtractReader(headers, mapping, format, delimiter !== ',');
        } else reader.add(context.lines, record);
        return null;
      },
    });
  } catch (err) {
    // csv-parse's own message quotes the cell it stopped at: only the line is said (46.4).
    if (err instanceof CsvError) {
      const line = (err as CsvError & { lines?: number }).lines;
      throw new AppError(
        'bad_request',
        `The ${format.toUpperCase()} text cannot be read${line ? ` at line ${line}` : ''} (${err.code}): check its quotes`,
      );
    }
    throw err;
  }
  if (!reader) throw new AppError('bad_request', 'The file is empty');
  return (reader as ExtractReader).finish();
}

/**
 * An .xlsx extract read a row at a time (decision 100): up to `maxRows` rows within bounded memory,
 * 413 at the first row past it. The sheet named "Results", else the first.
 */
export async function readExtractWorkbook(
  bytes: Buffer,
  mapping: ExtractMapping,
  maxRows = INDIRECT_MAX_ROWS,
): Promise<ReadExtract> {
  if (!isZip(bytes)) {
    throw new AppError('bad_request', 'The file is named .xlsx but is not an .xlsx workbook', {
      fields: [{ path: 'file', message: 'not an .xlsx workbook' }],
    });
  }
  let reader: ExtractReader | null = null;
  await readWorkbookUpload(
    () =>
      streamUploadedSheet(
        bytes,
        { sheet: 'Results' },
        {
          header: (headers) => (reader = new ExtractReader(headers, mapping, 'xlsx', false, maxRows)),
          row: (row, cells) => reader!.add(row, cells),
        },
      ),
    SheetError,
  );
  if (!reader) throw new AppError('bad_request', 'The file is empty');
  return (reader as ExtractReader).finish();
}

/** The whole request's work, off the event loop: reading the file, pairing, the methods, the presenter. */
export async function runIndirectTask(task: IndirectTask): Promise<IndirectRun> {
  const bytes = bufferOf(task.bytes);
  const { results, input } = isWorkbookUpload(bytes, task.fileName)
    ? await readExtractWorkbook(bytes, task.mapping)
    : readText(bytes, task.mapping);
  try {
    const estimate = estimateIndirect(results, task.options);
    return { input, all: presentStratum(estimate.all), strata: estimate.strata.map(presentStratum) };
  } catch (err) {
    if (err instanceof DomainInputError) throw tooFewOr(err, results.length);
    throw err;
  }
}

/** The domain's refusal as a 422; too few pairs says how many there were and what would give more. */
function tooFewOr(err: DomainInputError, results: number): AppError {
  const pairs = (err as DomainInputError & { pairs?: number }).pairs;
  if (typeof pairs === 'number') {
    const needed = (err as DomainInputError & { minimum?: number }).minimum;
    return new AppError(
      'unprocessable',
      `Too few pairs: ${pairs.toLocaleString('en')} pair${pairs === 1 ? '' : 's'} of consecutive results within the interval ` +
        `(from ${results.toLocaleString('en')} results)${needed ? `; at least ${needed} are needed` : ''}. ` +
        'Widen the interval, take all pairs per patient, or send a longer period',
    );
  }
  return new AppError('unprocessable', err.message);
}
