import { createHash } from 'node:crypto';
import type { Dataset } from '@bvdb/contract';
import { CROSSWALK_COLUMNS, LOINC_NOTICE } from '@bvdb/domain';
import type { DbOrTx } from '../../db/client.js';
import type { ExportNotice } from '../../lib/export-notice.js';
import { buildCrosswalkCsv } from '../analytes/index.js';
import { exportDatabaseJson } from '../backup/index.js';
import { listPresentedDatasetsInPages } from '../datasets/index.js';
import { buildCsvOffThread, buildWorkbookOffThread, DATASET_COLUMNS, exportCell } from '../exports/index.js';
import { listPresentedMetasInPages } from '../meta-analysis/index.js';
import { fixZipDates } from './zip-dates.js';

export interface ReleaseFileBytes {
  name: string;
  contentType: string;
  bytes: Buffer;
  sha256: string;
}

export interface ReleaseInput {
  version: string;
  /** The release's day at 00:00 UTC: every date inside the files (decision 058). */
  date: Date;
  notes: string;
  notice: ExportNotice;
  /** The site's address (PUBLIC_URL), if set: named in CITATION.cff. */
  siteUrl: string | undefined;
}

export const SITE_TITLE = 'EFLM Biological Variation Database';
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
export const MANIFEST = 'SHA256SUMS';
/** The crosswalk of every measurand's codes (decision 093), as `/api/v1/measurand-codes.csv` gives it. */
export const CROSSWALK_FILE = 'bv_measurand_codes.csv';

/** Bytes hashed, or strings encoded, between two turns of the event loop. */
const SLICE_BYTES = 1 << 20;

/**
 * SHA-256 a slice at a time, the event loop free between slices (issue 44.1): WebCrypto's digest
 * copied the whole file on the loop before hashing it in the pool (127 ms of one hold at 100×).
 */
async function sha256Of(bytes: Buffer): Promise<string> {
  const hash = createHash('sha256');
  for (let at = 0; at < bytes.length; at += SLICE_BYTES) {
    hash.update(bytes.subarray(at, at + SLICE_BYTES));
    if (at + SLICE_BYTES < bytes.length) await turn();
  }
  return hash.digest('hex');
}
const file = async (name: string, contentType: string, bytes: Buffer): Promise<ReleaseFileBytes> => ({
  name,
  contentType,
  bytes,
  sha256: await sha256Of(bytes),
});
const text = (name: string, contentType: string, body: string) =>
  file(name, contentType, Buffer.from(body, 'utf8'));
const turn = () => new Promise((resolve) => setImmediate(resolve));

/**
 * UTF-8 bytes of a file built as many strings, written into one buffer a slice at a time with the
 * event loop free between slices: no piece's bytes are copied twice (a concat of the whole file
 * was ~100 ms of one hold at 100× the demo data, eight pieces between turns ~300 ms).
 */
async function utf8OfPieces(pieces: string[]): Promise<Buffer> {
  let total = 0;
  let since = 0;
  for (const piece of pieces) {
    const n = Buffer.byteLength(piece, 'utf8');
    total += n;
    since += n;
    if (since >= SLICE_BYTES * 8) {
      since = 0;
      await turn();
    }
  }
  const out = Buffer.allocUnsafe(total);
  let at = 0;
  since = 0;
  for (const piece of pieces) {
    const n = out.write(piece, at, 'utf8');
    at += n;
    since += n;
    if (since >= SLICE_BYTES) {
      since = 0;
      await turn();
    }
  }
  return out;
}

/**
 * Every file of a release, built from the published data as the public downloads are (the same
 * builders, the spreadsheets in the export worker thread), with every date inside them the
 * release's day: the same database state and release give the same bytes. Ends with the manifest.
 */
export async function buildReleaseFiles(
  db: DbOrTx,
  input: ReleaseInput,
  /** Milliseconds each step took, filled in (the log line and the bench report them). */
  timings: Record<string, number> = {},
): Promise<ReleaseFileBytes[]> {
  const { date, notice } = input;
  let mark = performance.now();
  const step = (name: string) => {
    const now = performance.now();
    timings[name] = Math.round(now - mark);
    mark = now;
  };
  const jsonPieces = await exportDatabaseJson(db, 'published', null, { release: notice, exportedAt: date });
  step('json');
  // All in one snapshot, a page at a time (the event loop free between pages).
  const { datasets, metas, crosswalk } = await db.transaction(
    async (tx) => ({
      datasets: await listPresentedDatasetsInPages(tx, { signedIn: false }),
      metas: await listPresentedMetasInPages(tx),
      crosswalk: await buildCrosswalkCsv(tx),
    }),
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
  step('read');
  const csv = await buildCsvOffThread(datasets);
  step('csv');
  const xlsx = await buildWorkbookOffThread({
    title: `Biological variation database: release ${input.version}`,
    datasets,
    metas,
    generatedAt: date,
    notice,
  });
  step('xlsx');
  const json = await utf8OfPieces(jsonPieces);
  const files = await Promise.all([
    file('bv_database.json', 'application/json; charset=utf-8', json),
    file('bv_database.csv', 'text/csv; charset=utf-8', csv),
    file('bv_database.xlsx', XLSX, fixZipDates(xlsx, date)),
    text(CROSSWALK_FILE, 'text/csv; charset=utf-8', crosswalk),
  ]);
  files.push(
    ...(await Promise.all([
      text(
        'datapackage.json',
        'application/json; charset=utf-8',
        dataPackage(input, await columnTypes(datasets), files[1], files[3]),
      ),
      text('CITATION.cff', 'text/plain; charset=utf-8', citationCff(input)),
      // The data's terms, then LOINC's notice: its licence asks for it wherever its codes are shipped
      // (the crosswalk and the JSON's measurand_codes carry them; decision 093).
      text('LICENCE.txt', 'text/plain; charset=utf-8', `${notice.licence}\n\n${LOINC_NOTICE}\n`),
      text('RELEASE-NOTES.md', 'text/markdown; charset=utf-8', input.notes),
    ])),
  );
  // sha256sum's own format: `sha256sum -c SHA256SUMS` checks a downloaded release.
  const manifest = files.map((f) => `${f.sha256}  ${f.name}\n`).join('');
  files.push(await text(MANIFEST, 'text/plain; charset=utf-8', manifest));
  step('hash');
  return files;
}

type ColumnType = 'integer' | 'number' | 'string';

/**
 * The Table Schema type of each CSV column, from the values it holds in this release: a column of
 * numbers only is `number` (`integer` when every one is whole), anything else (or nothing) `string`.
 * Read a few hundred datasets at a time, the event loop free between (issue 44.1: every column of
 * every dataset in one go held it 1.3 s at 100× the demo data).
 */
async function columnTypes(datasets: Dataset[]): Promise<ColumnType[]> {
  const seen = DATASET_COLUMNS.map(() => ({ present: false, text: false, fraction: false }));
  for (let from = 0; from < datasets.length; from += 250) {
    if (from > 0) await turn();
    for (const d of datasets.slice(from, from + 250)) {
      DATASET_COLUMNS.forEach((c, i) => {
        const v = exportCell(c.value(d));
        if (v === null || v === '') return;
        const column = seen[i]!;
        column.present = true;
        if (typeof v !== 'number') column.text = true;
        else if (!Number.isInteger(v)) column.fraction = true;
      });
    }
  }
  return seen.map((c) => (!c.present || c.text ? 'string' : c.fraction ? 'number' : 'integer'));
}

/** A Frictionless (tabular) data package describing the release's CSV files. */
function dataPackage(
  input: ReleaseInput,
  types: ColumnType[],
  csv: ReleaseFileBytes,
  crosswalk: ReleaseFileBytes,
): string {
  const fields = DATASET_COLUMNS.map((c, i) => ({ name: c.header, type: types[i]! }));
  const pkg = {
    profile: 'tabular-data-package',
    name: 'eflm-biological-variation-database',
    title: SITE_TITLE,
    version: input.version,
    created: input.date.toISOString(),
    licenses: [{ path: 'LICENCE.txt', title: input.notice.licence }],
    ...(input.siteUrl ? { homepage: input.siteUrl } : {}),
    resources: [
      {
        name: 'bv-datasets',
        title: 'Published biological variation datasets',
        path: csv.name,
        profile: 'tabular-data-resource',
        format: 'csv',
        mediatype: 'text/csv',
        encoding: 'utf-8',
        bytes: csv.bytes.length,
        hash: `sha256:${csv.sha256}`,
        dialect: { delimiter: ',', lineTerminator: '\r\n', quoteChar: '"', header: true },
        schema: { fields },
      },
      {
        name: 'measurand-codes',
        title: 'The LOINC, NPU and SNOMED CT codes of the measurands (the crosswalk)',
        description: `One line per code: a code names one measurand, and a matrix and a unit scale (UCUM) when it names them. ${LOINC_NOTICE}`,
        path: crosswalk.name,
        profile: 'tabular-data-resource',
        format: 'csv',
        mediatype: 'text/csv',
        encoding: 'utf-8',
        bytes: crosswalk.bytes.length,
        hash: `sha256:${crosswalk.sha256}`,
        dialect: { delimiter: ',', lineTerminator: '\r\n', quoteChar: '"', header: true },
        schema: { fields: CROSSWALK_COLUMNS.map((name) => ({ name, type: 'string' })) },
        licenses: [
          { path: 'LICENCE.txt', title: input.notice.licence },
          { path: 'http://loinc.org/license', title: 'LOINC licence (its codes)' },
        ],
      },
    ],
  };
  return `${JSON.stringify(pkg, null, 2)}\n`;
}

/** YAML's double-quoted scalar: a JSON string is one. */
const yaml = (s: string) => JSON.stringify(s);

/** A Citation File Format (1.2.0) file naming this release. */
function citationCff(input: ReleaseInput): string {
  const lines = [
    'cff-version: 1.2.0',
    `message: ${yaml(`If you use these data, please cite them as below. ${input.notice.citation}`)}`,
    'type: dataset',
    `title: ${yaml(`${SITE_TITLE}, release ${input.version}`)}`,
    `version: ${yaml(input.version)}`,
    `date-released: ${yaml(input.date.toISOString().slice(0, 10))}`,
    'authors:',
    `  - name: ${yaml('European Federation of Clinical Chemistry and Laboratory Medicine (EFLM) Working Group on Biological Variation')}`,
    ...(input.siteUrl ? [`url: ${yaml(input.siteUrl)}`] : []),
    `abstract: ${yaml(`Data licence: ${input.notice.licence}`)}`,
  ];
  return `${lines.join('\n')}\n`;
}
