import { ESTIMATION_MAX_ROWS, type EstimationResponse } from '@bvdb/contract';
import { DomainInputError, estimateBiologicalVariation, type EstimationOptions } from '@bvdb/domain';
import { AppError } from '../../lib/app-error.js';
import {
  bufferOf,
  isWorkbookUpload,
  isZip,
  readWorkbookUpload,
  uploadedText,
} from '../../lib/upload-reader.js';
import { readUploadedSheet, SheetError } from '../dataset-upload/index.js';
import {
  delimiterOf,
  rowsFromJson,
  rowsFromSheet,
  sheetFromText,
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
      const delimiter = task.tsv ? '\t' : delimiterOf(task.text);
      return {
        input: rowsFromSheet(sheetFromText(task.text, delimiter), task.mapping, task.tsv ? 'tsv' : 'csv'),
        options: task.options,
      };
    }
    case 'file': {
      const bytes = bufferOf(task.bytes);
      if (!isZip(bytes) && /\.(tsv|tab)$/i.test(task.fileName ?? '')) {
        const text = bytes.toString('utf8');
        return {
          input: rowsFromSheet(sheetFromText(text, '\t'), task.mapping, 'tsv'),
          options: task.options,
        };
      }
      if (!isWorkbookUpload(bytes, task.fileName)) {
        const text = uploadedText(bytes);
        return {
          input: rowsFromSheet(sheetFromText(text, delimiterOf(text)), task.mapping, 'csv'),
          options: task.options,
        };
      }
      const sheet = await readWorkbookUpload(
        () => readUploadedSheet(bytes, task.fileName, { sheet: 'Results', maxRows: ESTIMATION_MAX_ROWS }),
        SheetError,
      );
      return { input: rowsFromSheet(sheet, task.mapping, 'xlsx'), options: task.options };
    }
  }
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
