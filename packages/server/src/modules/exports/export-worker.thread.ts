import { parentPort } from 'node:worker_threads';
import { lowerThisThreadPriority } from '../../lib/thread-priority.js';
import { datasetsToCsv } from './datasets-csv.js';
import { streamWorkbook } from './xlsx-writer.js';
import { tableToCsv, tableToXlsx } from './table-file.js';
import type { ExportJob, ExportPart, ExportResult, StagedList } from './export-worker.js';

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
/** Parts of long lists received ahead of their job, by job id. */
const parts = new Map<number, Partial<Record<StagedList, unknown[]>>>();

/** The job with the lists that came in parts put back. */
function withParts(id: number, job: ExportJob, staged: StagedList[] = []): ExportJob {
  const got = parts.get(id) ?? {};
  parts.delete(id);
  if (staged.length === 0) return job;
  const list = <T>(name: StagedList, sent: T[]) => (staged.includes(name) ? (got[name] ?? []) : sent) as T[];
  if (job.kind === 'csv') return { ...job, datasets: list('datasets', job.datasets) };
  if (job.kind === 'xlsx') {
    return {
      ...job,
      input: {
        ...job.input,
        datasets: list('datasets', job.input.datasets),
        metas: list('metas', job.input.metas),
      },
    };
  }
  return job;
}

parentPort?.on('message', (message: { id: number; job: ExportJob; staged?: StagedList[] } | ExportPart) => {
  if ('part' in message) {
    const got = parts.get(message.id) ?? {};
    parts.set(message.id, got);
    const into = (got[message.part.list] ??= []);
    for (const item of message.part.items) into.push(item);
    return;
  }
  void build(withParts(message.id, message.job, message.staged)).then(
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
