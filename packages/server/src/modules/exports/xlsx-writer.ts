import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { BVDB_VERSION, type Dataset, type MetaRecord } from '@bvdb/contract';
import {
  CITATION,
  DATA_USE_NOTICE,
  DATASET_COLUMNS,
  DATASET_USE_COLUMNS,
  exportCell,
  META_COLUMNS,
  neutralise,
} from './export-columns.js';

export interface ExportInput {
  title: string;
  notice?: { dataUse: string; citation: string; licence?: string; version?: string };
  datasets: Dataset[];
  metas: (MetaRecord & { analyte: string })[];
  generatedAt: Date;
}

/**
 * Streams an .xlsx with four sheets: datasets, meta-analysis results, citation and notice, and last
 * (after the sheets readers and scripts already know by position) a "Read me" with the release that
 * made the file and the data licence.
 */
export function streamWorkbook(input: ExportInput): PassThrough {
  return streamFedWorkbook(input, Promise.resolve(input.metas), onePage(input.datasets));
}

/** What a workbook says of itself; its lists come apart (`streamFedWorkbook`). */
export type WorkbookHead = Omit<ExportInput, 'datasets' | 'metas'>;

/**
 * The workbook of `streamWorkbook`, its datasets arriving a page at a time and its results when
 * read: the sheet's first bytes leave before either has come (the whole-database file's first byte
 * at 100× the demo data, issue 44.2). The same bytes as `streamWorkbook` of the same lists.
 */
export function streamFedWorkbook(
  head: WorkbookHead,
  metasRead: Promise<ExportInput['metas']>,
  datasetPages: AsyncIterable<Dataset[]>,
): PassThrough {
  const input = head;
  const stream = new PassThrough();
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: true, useSharedStrings: false });
  wb.creator = 'bvdb';
  wb.created = input.generatedAt;
  // The writer set `modified` to the time it was made: a file says when its data were read.
  wb.modified = input.generatedAt;

  void (async () => {
    const data = wb.addWorksheet('Datasets', { views: [{ state: 'frozen', ySplit: 1 }] });
    data.columns = [...DATASET_COLUMNS, ...DATASET_USE_COLUMNS].map((c) => ({
      header: c.header,
      key: c.key,
      width: c.width ?? 14,
    }));
    data.autoFilter = {
      from: { row: 1, column: 1 },
      to: { row: 1, column: DATASET_COLUMNS.length + DATASET_USE_COLUMNS.length },
    };
    data.getRow(1).font = { bold: true };
    data.getRow(1).commit();
    // Each row reads its own measurand's results only: scanning every result for every dataset was
    // datasets × results (20,200 × 28,000 twice at 100× the demo data), most of a whole file's build.
    const allMetas = await metasRead;
    const metasOf = metasByAnalyte(allMetas);
    for await (const page of datasetPages) {
      for (const d of page) {
        const own = metasOf.get(d.analyte_id) ?? [];
        data
          .addRow(
            Object.fromEntries([
              ...DATASET_COLUMNS.map((c) => [c.key, exportCell(c.value(d))]),
              ...DATASET_USE_COLUMNS.map((c) => [c.key, exportCell(c.value(d, own))]),
            ]),
          )
          .commit();
      }
    }
    data.commit();

    const metas = wb.addWorksheet('Meta-analysis', { views: [{ state: 'frozen', ySplit: 1 }] });
    metas.columns = META_COLUMNS.map((c) => ({ header: c.header, key: c.key, width: 18 }));
    metas.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: META_COLUMNS.length } };
    metas.getRow(1).font = { bold: true };
    metas.getRow(1).commit();
    for (const m of allMetas) {
      metas.addRow(Object.fromEntries(META_COLUMNS.map((c) => [c.key, exportCell(c.value(m))]))).commit();
    }
    metas.commit();

    const about = wb.addWorksheet('Citation');
    about.columns = [{ key: 'a', width: 120 }];
    for (const line of [
      input.title,
      `Generated ${input.generatedAt.toISOString()}`,
      '',
      'How to cite',
      input.notice?.citation ?? CITATION,
      '',
      'Data use',
      input.notice?.dataUse ?? DATA_USE_NOTICE,
      'Demo records are provisional demo appraisals, not official BIVAC assessments, and are not for clinical use.',
    ]) {
      about.addRow({ a: neutralise(line) }).commit();
    }
    about.commit();

    const readMe = wb.addWorksheet('Read me');
    readMe.columns = [
      { key: 'k', width: 22 },
      { key: 'v', width: 110 },
    ];
    for (const [k, v] of [
      ['File', input.title],
      ['Generated', input.generatedAt.toISOString()],
      ['bvdb version', input.notice?.version ?? BVDB_VERSION],
      ['Data licence', input.notice?.licence ?? DATA_USE_NOTICE],
      ['Sheets', 'Datasets, Meta-analysis, Citation, Read me'],
    ] as const) {
      readMe.addRow({ k, v: neutralise(v) }).commit();
    }
    readMe.commit();
    await wb.commit();
  })().catch((err: unknown) => stream.destroy(err as Error));
  return stream;
}

function metasByAnalyte<M extends { analyte_id: number }>(metas: readonly M[]): Map<number, M[]> {
  const by = new Map<number, M[]>();
  for (const m of metas) {
    const list = by.get(m.analyte_id);
    if (list) list.push(m);
    else by.set(m.analyte_id, [m]);
  }
  return by;
}

async function* onePage<T>(items: T[]): AsyncGenerator<T[]> {
  yield items;
}
