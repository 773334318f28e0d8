import { ESTIMATION_MAX_ROWS, type EstimationResponse } from '@bvdb/contract';
import {
  detectDelimiter,
  DomainInputError,
  estimateBiologicalVariation,
  type EstimationOptions,
} from '@bvdb/domain';
import { AppError } from '../../lib/app-error.js';
import { bufferOf, isWorkbookUpload, readWorkbookUpload, uploadedText } from '../../lib/upload-reader.js';
import { readUploadedSheet, SheetError } from '../dataset-upload/index.js';
import {
  rowsFromJson,
  rowsFromSheet,
  sheetFromText,
  type ColumnMapping,
  type ReadRows,
} from './estimation-input.js';
import { presentEstimation } from './estimations.presenter.js';
import { buildEstimationWorkbook } from './estimation-workbook.js';
import type { EstimationTask } from './estimations.service.js';

async function readRows(
  task: EstimationTask,
): Promise<{ input: ReadRows; options: Partial<EstimationOptions> }> {
  switch (task.kind) {
    case 'json': {
      const { options, ...input } = rowsFromJson(task.body);
      return { input, options: options ?? {} };
    }
    case 'text': {
      const delimiter = task.tsv ? '\t' : detectDelimiter(task.text);
      return { input: rowsFromText(task.text, delimiter, task.mapping), options: task.options };
    }
    case 'file': {
      const bytes = bufferOf(task.bytes);
      // Any delimited text, whatever its name (a published study's tab-separated ".txt"): the
      // delimiter is read from the content, as the page reads it (issue 42.6).
      if (!isWorkbookUpload(bytes, task.fileName)) {
        const text = uploadedText(bytes);
        return { input: rowsFromText(text, detectDelimiter(text), task.mapping), options: task.options };
      }
      const sheet = await readWorkbookUpload(
        () => readUploadedSheet(bytes, task.fileName, { sheet: 'Results', maxRows: ESTIMATION_MAX_ROWS }),
        SheetError,
      );
      return { input: rowsFromSheet(sheet, task.mapping, 'xlsx'), options: task.options };
    }
  }
}

/** Delimited text → rows; decimal commas are read where the delimiter is not a comma (issue 42.6). */
function rowsFromText(text: string, delimiter: ',' | '\t' | ';', mapping: ColumnMapping): ReadRows {
  return rowsFromSheet(sheetFromText(text, delimiter), mapping, delimiter === '\t' ? 'tsv' : 'csv', {
    decimalComma: delimiter !== ',',
  });
}

/** The whole request's work, off the event loop: reading the file or rows, the engine, the presenter. */
export async function runEstimationTask(task: EstimationTask): Promise<EstimationResponse | Uint8Array> {
  const { input, options } = await readRows(task);
  let answer: EstimationResponse;
  try {
    answer = presentEstimation(estimateBiologicalVariation(input.rows, options), input);
  } catch (err) {
    if (err instanceof DomainInputError) throw new AppError('unprocessable', err.message);
    throw err;
  }
  return task.xlsx ? buildEstimationWorkbook(answer) : answer;
}
