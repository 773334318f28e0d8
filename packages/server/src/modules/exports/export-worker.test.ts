import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/test-app.js';
import { fixZipDates } from '../releases/zip-dates.js';
import { listPresentedDatasets } from '../datasets/datasets.service.js';
import { listPresentedMetas } from '../meta-analysis/results/meta-results.service.js';
import { buildCsvOffThread, buildWorkbookOffThread } from './export-worker.js';
import { datasetsToCsv, streamWorkbook } from './xlsx-writer.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
}, 60_000);
afterAll(async () => {
  await ctx?.close();
});

describe('the export thread', () => {
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
