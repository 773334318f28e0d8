import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/test-app.js';
import { fixZipDates } from '../releases/zip-dates.js';
import { listPresentedDatasets } from '../datasets/datasets.service.js';
import { listPresentedMetas } from '../meta-analysis/results/meta-results.service.js';
import { buildCsvOffThread, buildWorkbookOffThread } from './export-worker.js';
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
});
