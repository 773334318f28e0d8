import { MENU_MAX_TESTS } from '@bvdb/contract';
import {
  bufferOf,
  isWorkbookUpload,
  readWorkbookUpload,
  uploadedText,
  type UploadedBytes,
} from '../../lib/upload-reader.js';
import { readUploadedSheet, SheetError } from '../dataset-upload/index.js';
import { linesFromJson, linesFromSheet, sheetFromMenuText, type ReadMenu } from './menu-input.js';

/** One request's reading: a JSON body, CSV text, or an uploaded file (.xlsx or CSV). */
export type MenuReadTask =
  { kind: 'json'; body: unknown } | { kind: 'text'; text: string } | ({ kind: 'file' } & UploadedBytes);

/** The menu sheet of a template workbook; another workbook's first sheet is read. */
export const MENU_SHEET = 'Menu';

/** Reading the menu, off the event loop: a 2 MB workbook is expanded here, never on the main thread. */
export async function readMenuTask(task: MenuReadTask): Promise<ReadMenu> {
  switch (task.kind) {
    case 'json':
      return linesFromJson(task.body);
    case 'text':
      return linesFromSheet(sheetFromMenuText(task.text));
    case 'file': {
      const bytes = bufferOf(task.bytes);
      if (!isWorkbookUpload(bytes, task.fileName))
        return linesFromSheet(sheetFromMenuText(uploadedText(bytes)));
      return linesFromSheet(
        await readWorkbookUpload(
          () => readUploadedSheet(bytes, task.fileName, { sheet: MENU_SHEET, maxRows: MENU_MAX_TESTS }),
          SheetError,
        ),
      );
    }
  }
}
