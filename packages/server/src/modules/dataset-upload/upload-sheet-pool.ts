import { WorkerPool } from '../../lib/worker-pool.js';
import type { Sheet } from './upload-sheet.js';

/**
 * One thread (two on a larger machine) reads uploaded sheets. The bounds checks refuse a hostile
 * file in well under a second; the time and heap limits are the second line, above what the
 * largest file allowed needs (5,000 filled rows of the template: about 4 s and 300 MB).
 */
const pool = new WorkerPool<{ bytes: Uint8Array; fileName: string | undefined }, Sheet>({
  from: import.meta.url,
  file: './upload-sheet.thread.js',
  timeoutMs: 30_000,
  resourceLimits: { maxOldGenerationSizeMb: 512 },
  tooLong: {
    code: 'payload_too_large',
    message: 'The file took too long to read (over 30 s): split the rows over several files.',
  },
  tooLarge: {
    code: 'payload_too_large',
    message: 'The file needs too much memory to read: split the rows over several files.',
  },
  busy: 'Uploaded files are being read for other users; try again in a few seconds.',
});

/** An uploaded .xlsx or CSV file as header + rows, read in a worker thread. */
export const readUploadedSheetOffThread = (bytes: Buffer, fileName: string | undefined): Promise<Sheet> =>
  pool.run({ bytes: new Uint8Array(bytes), fileName });
