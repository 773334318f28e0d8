import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/test-app.js';
import { fixZipDates } from '../releases/zip-dates.js';
import { listPresentedDatasets } from '../datasets/datasets.service.js';
import { listPresentedMetas } from '../meta-analysis/results/meta-results.service.js';
import {
  buildCsvOffThread,
  buildTableOffThread,
  buildWorkbookOffThread,
  streamWorkbookOffThread,
} from './export-worker.js';
import { tableToCsv } from './table-file.js';
import { datasetsToCsv } from './datasets-csv.js';
import { streamWorkbook } from './xlsx-writer.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
}, 60_000);
afterAll(async () => {
  await ctx?.close();
});

/** Runs `code` (an ES module) in a Node process of its own through tsx: its exit code and output, or 'hung'. */
function runScript(code: string, seconds: number): Promise<{ exit: number | 'hung'; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--conditions=source', '--input-type=module', '-e', code],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), seconds * 1000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ exit: code ?? 'hung', out });
    });
  });
}

describe('the export thread', () => {
  it('does not keep a process alive once its file is built (decision 074: the menu bench took minutes to exit)', async () => {
    const module = JSON.stringify(new URL('./export-worker.ts', import.meta.url).href);
    const { exit, out } = await runScript(
      `import { buildCsvOffThread } from ${module}; const csv = await buildCsvOffThread([]); console.log('built', csv.length > 0);`,
      45,
    );
    expect(out).toContain('built true');
    expect(exit).toBe(0);
  }, 60_000);

  it('builds from long lists sent in parts the same files as from the lists whole, in order', async () => {
    const demo = await listPresentedDatasets(ctx.database.db, { signedIn: false });
    // Over a thousand datasets (sent in parts of 500), each distinct, in a known order.
    const datasets = Array.from({ length: Math.ceil(1234 / demo.length) }, (_, k) =>
      demo.map((d) => ({ ...d, id: d.id + 100_000 * k })),
    )
      .flat()
      .slice(0, 1234);
    const metas = await listPresentedMetas(ctx.database.db);
    const longMetas = Array.from({ length: Math.ceil(700 / metas.length) }, () => metas)
      .flat()
      .slice(0, 700);

    const csv = await buildCsvOffThread(datasets);
    expect(csv.toString('utf8')).toBe(datasetsToCsv(datasets));
    expect(csv.toString('utf8').trimEnd().split('\r\n')).toHaveLength(1235);

    const date = new Date('2026-01-02T00:00:00.000Z');
    const input = { title: 'Parts', datasets, metas: longMetas, generatedAt: date };
    const offThread = await buildWorkbookOffThread(input);
    const chunks: Buffer[] = [];
    for await (const chunk of streamWorkbook(input)) chunks.push(chunk as Buffer);
    expect(fixZipDates(offThread, date).equals(fixZipDates(Buffer.concat(chunks), date))).toBe(true);
    // A short list after long ones is not mixed with their parts.
    expect((await buildCsvOffThread(demo.slice(0, 3))).toString('utf8')).toBe(
      datasetsToCsv(demo.slice(0, 3)),
    );
  });

  it('builds a table from rows sent in parts the same CSV as from the rows whole, in order (issue 44.1)', async () => {
    // 1,234 distinct rows: over the part size, so they go over in parts before the job.
    const rows = Array.from({ length: 1234 }, (_, i) => [`measurand ${i}`, i / 10, i % 7 === 0 ? null : i]);
    const input = {
      title: 'Parts',
      headers: ['Measurand', 'CVI', 'n'],
      rows,
      notes: [['Source', 'bvdb']] as [string, string][],
      generatedAt: new Date('2026-01-02T00:00:00.000Z'),
    };
    const csv = (await buildTableOffThread('csv', input)).toString('utf8');
    expect(csv).toBe(tableToCsv(input));
    expect(csv).toContain('measurand 1233,');
    // A short table after a long one is not mixed with its parts.
    const short = { ...input, rows: rows.slice(0, 2) };
    expect((await buildTableOffThread('csv', short)).toString('utf8')).toBe(tableToCsv(short));
  });

  it('streams a workbook fed a page at a time: the same file, its first bytes before its lists are read', async () => {
    const demo = await listPresentedDatasets(ctx.database.db, { signedIn: false });
    const metas = await listPresentedMetas(ctx.database.db);
    const datasets = Array.from({ length: 3 }, (_, k) =>
      demo.map((d) => ({ ...d, id: d.id + 100_000 * k })),
    ).flat();
    const date = new Date('2026-01-02T00:00:00.000Z');
    const head = { title: 'Fed', generatedAt: date };
    const whole = await buildWorkbookOffThread({ ...head, datasets, metas });

    // The lists are held back until the first bytes have come: a stream that waited for them would hang here.
    let readMetas!: (m: typeof metas) => void;
    const metasRead = new Promise<typeof metas>((resolve) => (readMetas = resolve));
    let pagesAsked = false;
    async function* pages() {
      pagesAsked = true;
      for (let i = 0; i < datasets.length; i += 700) yield datasets.slice(i, i + 700);
    }
    const stream = streamWorkbookOffThread(head, metasRead, pages());
    const first = await stream.next();
    expect(first.done).toBe(false);
    const firstBytes = first.value as Buffer;
    expect(firstBytes.subarray(0, 2).toString('latin1')).toBe('PK');
    expect(pagesAsked).toBe(false);
    readMetas(metas);
    const chunks = [firstBytes];
    for await (const chunk of stream) chunks.push(chunk);
    expect(fixZipDates(Buffer.concat(chunks), date).equals(fixZipDates(whole, date))).toBe(true);
  });

  it('a streamed workbook whose results cannot be read ends with that error, and the thread serves the next', async () => {
    const date = new Date('2026-01-02T00:00:00.000Z');
    async function* none() {}
    const failing = streamWorkbookOffThread(
      { title: 'Broken', generatedAt: date },
      Promise.reject(new Error('the database went away')),
      none(),
    );
    await expect(
      (async () => {
        for await (const chunk of failing) void chunk;
      })(),
    ).rejects.toThrow('the database went away');
    const csv = await buildCsvOffThread([]);
    expect(csv.length).toBeGreaterThan(0);
  });
});
