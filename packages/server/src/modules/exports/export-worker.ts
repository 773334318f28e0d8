import type { Worker } from 'node:worker_threads';
import type { Dataset } from '@bvdb/contract';
import { spawnWorker } from '../../lib/spawn-worker.js';
import type { ExportInput } from './xlsx-writer.js';
import type { TableFileInput } from './table-file.js';

export type ExportJob =
  | { kind: 'xlsx'; input: ExportInput }
  | { kind: 'csv'; datasets: Dataset[] }
  | { kind: 'table'; format: 'csv' | 'xlsx'; input: TableFileInput };
export type ExportResult =
  { id: number; ok: true; bytes: Uint8Array } | { id: number; ok: false; message: string };

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

  private start(): Worker {
    const worker = spawnWorker(import.meta.url, './export-worker.thread.js');
    worker.on('message', (result: ExportResult) => {
      const waiting = this.pending.get(result.id);
      if (!waiting) return;
      this.pending.delete(result.id);
      if (this.pending.size === 0) worker.unref();
      if (result.ok)
        waiting.resolve(Buffer.from(result.bytes.buffer, result.bytes.byteOffset, result.bytes.byteLength));
      else waiting.reject(new Error(`export build failed: ${result.message}`));
    });
    const fail = (err: Error) => {
      if (this.worker === worker) this.worker = undefined;
      for (const waiting of this.pending.values()) waiting.reject(err);
      this.pending.clear();
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
    // the thread in one message holds this thread for seconds (a release at 100× the demo data).
    // The thread puts the parts back in the job, in order (a port keeps its messages' order).
    const lists: [StagedList, unknown[]][] =
      job.kind === 'csv'
        ? [['datasets', job.datasets]]
        : job.kind === 'xlsx'
          ? [
              ['datasets', job.input.datasets],
              ['metas', job.input.metas],
            ]
          : [];
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
          : job;
    worker.postMessage({ id, job: sent, staged: staged.map(([l]) => l) });
    return done;
  }
}

/** Items per message when a long list is sent to the thread in parts. */
const STAGE_PART = 500;
export type StagedList = 'datasets' | 'metas';
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
