import { AppError } from '../../lib/app-error.js';
import { answerTasks } from '../../lib/worker-task.js';
import { readUploadedSheet, SheetError } from './upload-sheet.js';

/** A sheet-reading thread: unzipping, the bounds checks and exceljs run here, not on the event loop. */
answerTasks(async ({ bytes, fileName }: { bytes: Uint8Array; fileName: string | undefined }) => {
  try {
    return await readUploadedSheet(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), fileName);
  } catch (err) {
    if (!(err instanceof SheetError)) throw err;
    throw new AppError(err.tooLarge ? 'payload_too_large' : 'bad_request', err.message, {
      fields: [{ path: 'file', message: err.message }],
    });
  }
});
