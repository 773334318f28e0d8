import { parentPort } from 'node:worker_threads';
import { lowerThisThreadPriority } from '../../lib/thread-priority.js';
import { datasetsToCsv, streamWorkbook } from './xlsx-writer.js';
import { tableToCsv, tableToXlsx } from './table-file.js';
import type { ExportJob, ExportResult } from './export-worker.js';

/** Runs in a worker thread: builds spreadsheets and CSV files off the server's event loop. */
async function build(job: ExportJob): Promise<Buffer> {
  if (job.kind === 'csv') return Buffer.from(datasetsToCsv(job.datasets), 'utf8');
  if (job.kind === 'table')
    return job.format === 'csv' ? Buffer.from(tableToCsv(job.input), 'utf8') : tableToXlsx(job.input);
  const chunks: Buffer[] = [];
  for await (const chunk of streamWorkbook(job.input)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

lowerThisThreadPriority();
parentPort?.on('message', (message: { id: number; job: ExportJob }) => {
  void build(message.job).then(
    (bytes) => {
      // A copy of our own, handed over (transferred) rather than copied again.
      const owned = new Uint8Array(bytes);
      const result: ExportResult = { id: message.id, ok: true, bytes: owned };
      parentPort?.postMessage(result, [owned.buffer]);
    },
    (err: unknown) => {
      const result: ExportResult = {
        id: message.id,
        ok: false,
        message: err instanceof Error ? err.message : String(err),
      };
      parentPort?.postMessage(result);
    },
  );
});
