import { parentPort } from 'node:worker_threads';
import { lowerThisThreadPriority } from '../../lib/thread-priority.js';
import { datasetsToCsv } from './datasets-csv.js';
import { streamFedWorkbook, streamWorkbook, type ExportInput } from './xlsx-writer.js';
import { tableToCsv, tableToXlsx } from './table-file.js';
import type {
  ExportJob,
  ExportPart,
  ExportResult,
  StagedList,
  WorkbookFeedMessage,
} from './export-worker.js';
import type { Dataset } from '@bvdb/contract';

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
  return { ...job, input: { ...job.input, rows: list('rows', job.input.rows) } };
}

/** A streamed workbook being written: where its next results and pages go. */
interface Feeding {
  metas: ExportInput['metas'];
  metasRead: (metas: ExportInput['metas']) => void;
  pages: Dataset[][];
  done: boolean;
  aborted: string | undefined;
  wake: (() => void) | undefined;
}
const feedings = new Map<number, Feeding>();

/** The pages of a streamed workbook as they arrive, until its end (or its abort). */
async function* pagesOf(feeding: Feeding): AsyncGenerator<Dataset[]> {
  for (;;) {
    if (feeding.aborted) throw new Error(feeding.aborted);
    const page = feeding.pages.shift();
    if (page) yield page;
    else if (feeding.done) return;
    else await new Promise<void>((resolve) => (feeding.wake = resolve));
  }
}

function startWorkbook(id: number, head: Parameters<typeof streamFedWorkbook>[0]) {
  let metasRead!: (metas: ExportInput['metas']) => void;
  const metas = new Promise<ExportInput['metas']>((resolve) => (metasRead = resolve));
  const feeding: Feeding = {
    metas: [],
    metasRead,
    pages: [],
    done: false,
    aborted: undefined,
    wake: undefined,
  };
  feedings.set(id, feeding);
  const out = streamFedWorkbook(head, metas, pagesOf(feeding));
  out.on('data', (chunk: Buffer) => {
    // A copy of our own, handed over (transferred) rather than copied again.
    const owned = new Uint8Array(chunk);
    parentPort?.postMessage({ id, chunk: owned } satisfies ExportResult, [owned.buffer]);
  });
  out.on('end', () => {
    feedings.delete(id);
    parentPort?.postMessage({ id, ok: true, end: true } satisfies ExportResult);
  });
  out.on('error', (err) => {
    feedings.delete(id);
    parentPort?.postMessage({ id, ok: false, message: err.message } satisfies ExportResult);
  });
}

function feed({ id, feed: part }: WorkbookFeedMessage) {
  if ('start' in part) return startWorkbook(id, part.start);
  const feeding = feedings.get(id);
  if (!feeding) return;
  if ('metas' in part) for (const m of part.metas) feeding.metas.push(m);
  else if ('metasEnd' in part) feeding.metasRead(feeding.metas);
  else if ('datasets' in part) feeding.pages.push(part.datasets);
  else if ('end' in part) feeding.done = true;
  else {
    feeding.aborted = part.abort;
    // A writer still waiting for its results is let go with none: its pages' abort ends it.
    feeding.metasRead([]);
  }
  const wake = feeding.wake;
  feeding.wake = undefined;
  wake?.();
}

type Message = { id: number; job: ExportJob; staged?: StagedList[] } | ExportPart | WorkbookFeedMessage;

parentPort?.on('message', (message: Message) => {
  if ('feed' in message) return feed(message);
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
