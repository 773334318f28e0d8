import type { Worker } from 'node:worker_threads';
import type { Dataset } from '@bvdb/contract';
import { spawnWorker } from '../../lib/spawn-worker.js';
import type { ExportInput, WorkbookHead } from './xlsx-writer.js';
import type { TableFileInput } from './table-file.js';

export type ExportJob =
  | { kind: 'xlsx'; input: ExportInput }
  | { kind: 'csv'; datasets: Dataset[] }
  | { kind: 'table'; format: 'csv' | 'xlsx'; input: TableFileInput };
export type ExportResult =
  | { id: number; ok: true; bytes: Uint8Array }
  | { id: number; ok: false; message: string }
  /** A streamed workbook's next bytes, and its end. */
  | { id: number; chunk: Uint8Array }
  | { id: number; ok: true; end: true };

/** What the main thread sends of a streamed workbook, in order: start, results, their end, pages, end. */
export type WorkbookFeedMessage = {
  id: number;
  feed:
    | { start: WorkbookHead }
    | { metas: ExportInput['metas'] }
    | { metasEnd: true }
    | { datasets: Dataset[] }
    | { end: true }
    | { abort: string };
};

/** A streamed workbook being received: where its bytes, end or failure go. */
interface Receiving {
  chunk(bytes: Buffer): void;
  end(): void;
  fail(err: Error): void;
}

/**
 * The file builds in a worker thread: a whole-database workbook takes seconds of CPU at 100× the demo
 * data (about 1 s at demo size), which on the main thread would hold every other request, /healthz
 * included. One long-lived thread, started on first use, builds one file at a time (each file is
 * built once per data generation and then served from the read cache); it holds the process
 * only while it builds, and a crash fails the builds in progress and starts a new thread for the next.
 */
class ExportWorker {
  private worker: Worker | undefined;
  private nextId = 1;
  private pending = new Map<number, { resolve: (b: Buffer) => void; reject: (e: Error) => void }>();
  private receiving = new Map<number, Receiving>();

  private idle(): boolean {
    return this.pending.size === 0 && this.receiving.size === 0;
  }

  private start(): Worker {
    const worker = spawnWorker(import.meta.url, './export-worker.thread.js');
    worker.on('message', (result: ExportResult) => {
      const streamed = this.receiving.get(result.id);
      if (streamed) {
        if ('chunk' in result)
          streamed.chunk(Buffer.from(result.chunk.buffer, result.chunk.byteOffset, result.chunk.byteLength));
        else if (!result.ok) streamed.fail(new Error(`export build failed: ${result.message}`));
        else streamed.end();
        return;
      }
      if ('chunk' in result || 'end' in result) return;
      const waiting = this.pending.get(result.id);
      if (!waiting) return;
      this.pending.delete(result.id);
      if (this.idle()) worker.unref();
      if (result.ok)
        waiting.resolve(Buffer.from(result.bytes.buffer, result.bytes.byteOffset, result.bytes.byteLength));
      else waiting.reject(new Error(`export build failed: ${result.message}`));
    });
    const fail = (err: Error) => {
      if (this.worker === worker) this.worker = undefined;
      for (const waiting of this.pending.values()) waiting.reject(err);
      this.pending.clear();
      for (const streamed of this.receiving.values()) streamed.fail(err);
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`export worker stopped (exit code ${code})`)));
    // Unref'd after the 'message' listener: on Node 20 a listener added to an unref'd worker refs its
    // port again, and the process then stayed alive for minutes after its last file (decision 074).
    worker.unref();
    return worker;
  }

  async build(job: ExportJob): Promise<Buffer> {
    this.worker ??= this.start();
    const id = this.nextId++;
    const worker = this.worker;
    const done = new Promise<Buffer>((resolve, reject) => this.pending.set(id, { resolve, reject }));
    // Held while it builds (a script awaiting a file is not ended under it), let go when idle.
    worker.ref();
    // Long lists go over in parts, the event loop free between them: copying 20,000 datasets into
    // the thread in one message holds this thread for seconds (a release at 100× the demo data), and
    // a summary table's 7,000 rows in one message held it 82 ms (issue 44.1).
    // The thread puts the parts back in the job, in order (a port keeps its messages' order).
    const lists: [StagedList, unknown[]][] =
      job.kind === 'csv'
        ? [['datasets', job.datasets]]
        : job.kind === 'xlsx'
          ? [
              ['datasets', job.input.datasets],
              ['metas', job.input.metas],
            ]
          : [['rows', job.input.rows]];
    const staged = lists.filter(([, items]) => items.length > STAGE_PART);
    for (const [list, items] of staged) {
      for (let i = 0; i < items.length; i += STAGE_PART) {
        worker.postMessage({ id, part: { list, items: items.slice(i, i + STAGE_PART) } });
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    const emptied = (items: unknown[], list: StagedList) => (staged.some(([l]) => l === list) ? [] : items);
    const sent: ExportJob =
      job.kind === 'csv'
        ? { kind: 'csv', datasets: emptied(job.datasets, 'datasets') as Dataset[] }
        : job.kind === 'xlsx'
          ? {
              kind: 'xlsx',
              input: {
                ...job.input,
                datasets: emptied(job.input.datasets, 'datasets') as Dataset[],
                metas: emptied(job.input.metas, 'metas') as ExportInput['metas'],
              },
            }
          : {
              ...job,
              input: { ...job.input, rows: emptied(job.input.rows, 'rows') as TableFileInput['rows'] },
            };
    worker.postMessage({ id, job: sent, staged: staged.map(([l]) => l) });
    return done;
  }

  /**
   * A workbook sent as the thread writes it: the results and the dataset pages go over as they are
   * read, the file's bytes come back as they are made. Its first bytes leave before the lists are
   * read (issue 44.2: the whole-database workbook's first byte took 27 s at 100× the demo data).
   */
  async *stream(
    head: WorkbookHead,
    metasRead: Promise<ExportInput['metas']>,
    datasetPages: AsyncIterable<Dataset[]>,
  ): AsyncGenerator<Buffer> {
    this.worker ??= this.start();
    const worker = this.worker;
    const id = this.nextId++;
    const queue: Buffer[] = [];
    let ended = false;
    let failure: Error | undefined;
    let wake: (() => void) | undefined;
    this.receiving.set(id, {
      chunk: (bytes) => (queue.push(bytes), wake?.()),
      end: () => ((ended = true), wake?.()),
      fail: (err) => ((failure ??= err), wake?.()),
    });
    const send = (feed: WorkbookFeedMessage['feed']) =>
      worker.postMessage({ id, feed } satisfies WorkbookFeedMessage);
    worker.ref();
    send({ start: head });
    // The lists go over as they are read; a failure to read them ends the stream with it.
    void (async () => {
      const metas = await metasRead;
      for (let i = 0; i < metas.length; i += STAGE_PART) {
        send({ metas: metas.slice(i, i + STAGE_PART) });
        await new Promise((resolve) => setImmediate(resolve));
      }
      send({ metasEnd: true });
      for await (const page of datasetPages) {
        for (let i = 0; i < page.length; i += STAGE_PART) {
          send({ datasets: page.slice(i, i + STAGE_PART) });
          await new Promise((resolve) => setImmediate(resolve));
        }
      }
      send({ end: true });
    })().catch((err: unknown) => {
      const error = err instanceof Error ? err : new Error(String(err));
      send({ abort: error.message });
      failure ??= error;
      wake?.();
    });
    try {
      for (;;) {
        if (queue.length > 0) {
          yield queue.length === 1 ? queue.shift()! : Buffer.concat(queue.splice(0));
          continue;
        }
        if (failure) throw failure;
        if (ended) return;
        await new Promise<void>((resolve) => (wake = resolve));
        wake = undefined;
      }
    } finally {
      if (!ended && !failure) send({ abort: 'the reader went away' });
      this.receiving.delete(id);
      if (this.idle() && this.worker === worker) worker.unref();
    }
  }
}

/** Items per message when a long list is sent to the thread in parts. */
const STAGE_PART = 200;
export type StagedList = 'datasets' | 'metas' | 'rows';
/** A part of a long list of job `id`, sent before the job itself. */
export interface ExportPart {
  id: number;
  part: { list: StagedList; items: unknown[] };
}

const exportWorker = new ExportWorker();

/** An .xlsx of the datasets and meta-analysis results, built off the main thread. */
export const buildWorkbookOffThread = (input: ExportInput) => exportWorker.build({ kind: 'xlsx', input });

/** The CSV of the datasets, built off the main thread. */
export const buildCsvOffThread = (datasets: Dataset[]) => exportWorker.build({ kind: 'csv', datasets });

/** A plain table (one sheet and a "Read me", or CSV), built off the main thread. */
export const buildTableOffThread = (format: 'csv' | 'xlsx', input: TableFileInput) =>
  exportWorker.build({ kind: 'table', format, input });

/** The whole-database workbook, its lists fed as they are read and its bytes sent as they are made. */
export const streamWorkbookOffThread = (
  head: WorkbookHead,
  metasRead: Promise<ExportInput['metas']>,
  datasetPages: AsyncIterable<Dataset[]>,
) => exportWorker.stream(head, metasRead, datasetPages);
