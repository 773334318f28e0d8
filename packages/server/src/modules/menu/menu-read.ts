import { MENU_MAX_TESTS } from '@bvdb/contract';
import { AppError } from '../../lib/app-error.js';
import { readUploadedSheet, SheetError } from '../dataset-upload/index.js';
import { linesFromJson, linesFromSheet, sheetFromMenuText, type ReadMenu } from './menu-input.js';

/** One request's reading: a JSON body, CSV text, or an uploaded file (.xlsx or CSV). */
export type MenuReadTask =
  | { kind: 'json'; body: unknown }
  | { kind: 'text'; text: string }
  | { kind: 'file'; bytes: Uint8Array; fileName: string | undefined };

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
      const bytes = Buffer.from(task.bytes.buffer, task.bytes.byteOffset, task.bytes.byteLength);
      const isXlsx = bytes.length >= 4 && bytes.readUInt32LE(0) === 0x04034b50;
      if (!isXlsx && !/\.xlsx$/i.test(task.fileName ?? '')) {
        const text = bytes.toString('utf8');
        if (text.includes('\uFFFD'))
          throw new AppError('bad_request', 'The file is neither an .xlsx workbook nor UTF-8 CSV text');
        return linesFromSheet(sheetFromMenuText(text));
      }
      try {
        return linesFromSheet(
          await readUploadedSheet(bytes, task.fileName, { sheet: MENU_SHEET, maxRows: MENU_MAX_TESTS }),
        );
      } catch (err) {
        if (!(err instanceof SheetError)) throw err;
        const code = err.tooLarge
          ? 'payload_too_large'
          : /rows of data/.test(err.message)
            ? 'unprocessable'
            : 'bad_request';
        throw new AppError(code, err.message, { fields: [{ path: 'file', message: err.message }] });
      }
    }
  }
}
