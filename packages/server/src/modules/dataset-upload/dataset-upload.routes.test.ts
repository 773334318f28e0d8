import { DATASET_FIELD_LABELS, DATASET_MESSAGES, type ApiError, type UploadPreview } from '@bvdb/contract';
import { QUALITY_ITEMS } from '@bvdb/domain';
import { and, count, eq, inArray, isNotNull } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import {
  analytes,
  auditLog,
  bvSpecificationDiseaseStates,
  bvSpecifications,
  jobs,
  metaRecomputeRequests,
  references,
} from '../../db/schema.js';
import { seedDatabase } from '../../seed/seed.js';
import { signInAs, type SignedIn } from '../../test/sign-in.js';
import { createTestDatabase, TEST_ADMIN, testConfig } from '../../test/test-app.js';
import { RecomputeWorker } from '../recompute-queue/recompute-worker.js';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/client.js';

// A recompute worker that is not started: the upload's recompute requests stay in the outbox to count.
let app: FastifyInstance;
let database: Database;
let drop: () => Promise<void>;
let s: SignedIn;
let template: Buffer;
let ref: { id: number; doi: string; pmid: string };
let otherRef: { id: number; pmid: string };
let measurands: { id: number; name: string }[];

beforeAll(async () => {
  ({ database, drop } = await createTestDatabase());
  await seedDatabase(database.db, {
    demo: true,
    adminEmail: TEST_ADMIN.email,
    adminPassword: TEST_ADMIN.password,
  });
  app = await buildApp({
    config: testConfig(),
    database,
    recompute: new RecomputeWorker(database, () => undefined),
  });
  await app.ready();
  s = await signInAs(app);
  const refs = await database.db
    .select()
    .from(references)
    .where(and(isNotNull(references.doi), isNotNull(references.pubmedLink)))
    .orderBy(references.id)
    .limit(2);
  const pmidOf = (link: string | null) => /(\d+)\/?$/.exec(link!)![1]!;
  ref = { id: refs[0]!.id, doi: refs[0]!.doi!, pmid: pmidOf(refs[0]!.pubmedLink) };
  otherRef = { id: refs[1]!.id, pmid: pmidOf(refs[1]!.pubmedLink) };
  measurands = (await database.db.select().from(analytes).orderBy(analytes.id).limit(3)).map((a) => ({
    id: a.id,
    name: a.displayName,
  }));
  const res = await app.inject({ method: 'GET', url: '/templates/datasets.xlsx' });
  template = res.rawPayload;
});
afterAll(async () => {
  await app.close();
  await drop();
});

const L = DATASET_FIELD_LABELS;
const gradesA = Object.fromEntries(QUALITY_ITEMS.map((q) => [L[q.key], 'A']));

/** A complete, valid row (by label), changed by `over`. */
const row = (over: Record<string, unknown> = {}): Record<string, unknown> => ({
  [L.analyte_id]: measurands[0]!.name,
  [L.reference_id]: ref.doi,
  [L.unique_identifier]: `BULK-${Math.random().toString(36).slice(2, 8)}`,
  [L.matrix_id]: 'Serum',
  ...gradesA,
  [L.state_of_well_being_id]: 'Healthy',
  [L.ethnicity_id]: 'Caucasian',
  [L.sex_for_meta_analysis]: 'Mixed',
  [L.number_of_subjects]: 20,
  [L.estimates_of_cvi]: 5.5,
  [L.estimates_of_cvg]: 12,
  [L.analytical_cv]: 2,
  [L.sampling_times_start_time]: '07:00',
  [L.sampling_times_end_time]: '09:00',
  [L.include_in_meta_analysis]: 'Yes',
  [L.published]: 'Yes',
  ...over,
});

/** The downloaded template with these rows filled in, as a person would save it. */
async function filled(rows: Record<string, unknown>[]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(template as unknown as ArrayBuffer);
  const ws = wb.getWorksheet('Datasets')!;
  const headers = (ws.getRow(1).values as unknown[]).slice(1).map(String);
  rows.forEach((r, i) => {
    for (const [label, value] of Object.entries(r)) {
      const col = headers.indexOf(label);
      if (col < 0) throw new Error(`no column ${label}`);
      ws.getRow(i + 2).getCell(col + 1).value = value as ExcelJS.CellValue;
    }
  });
  return Buffer.from(await wb.xlsx.writeBuffer());
}

function multipart(body: Buffer | string, name = 'datasets.xlsx') {
  const boundary = '----bvdbupload';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  return {
    payload: Buffer.concat([
      head,
      Buffer.isBuffer(body) ? body : Buffer.from(body),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

const post = (url: string, body: Buffer | string, name?: string, signedIn = true) => {
  const m = multipart(body, name);
  return app.inject({
    method: 'POST',
    url,
    payload: m.payload,
    headers: { ...m.headers, ...(signedIn ? s.headers : {}) },
  });
};
const PREVIEW = '/api/v1/bv_specifications/upload/preview';
const COMMIT = '/api/v1/bv_specifications/upload';

const countDatasets = async () => (await database.db.select({ n: count() }).from(bvSpecifications))[0]!.n;

describe('GET /templates/datasets.xlsx', () => {
  it('one column per field of the form with its label, drop-downs from the lookups, a Read me', async () => {
    const res = await app.inject({ method: 'GET', url: '/templates/datasets.xlsx' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/spreadsheetml/);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    expect(wb.worksheets.map((w) => w.name)).toEqual(['Datasets', 'Read me', 'Lists']);
    const ws = wb.getWorksheet('Datasets')!;
    const headers = (ws.getRow(1).values as unknown[]).slice(1);
    expect(headers).toEqual(Object.values(L));
    const col = (label: string) => headers.indexOf(label) + 1;
    const matrix = ws.getRow(2).getCell(col(L.matrix_id)).dataValidation;
    expect(matrix.type).toBe('list');
    const lists = wb.getWorksheet('Lists')!;
    const matrixNames = lists.getColumn(2).values.slice(2);
    expect(matrixNames).toContain('Serum');
    expect(matrix.formulae[0]).toMatch(/^Lists!\$B\$2:\$B\$\d+$/);
    expect(ws.getRow(5).getCell(col(L.scale)).dataValidation.formulae).toEqual(['"A,B,NA"']);
    expect(ws.getRow(5).getCell(col(L.interval_units)).dataValidation.formulae[0]).toContain('Week');
    const readme = wb.getWorksheet('Read me')!;
    const text = readme
      .getSheetValues()
      .flat()
      .filter((v) => typeof v === 'string')
      .join('\n');
    expect(text).toContain('PMID:12345678');
    expect(text).toContain(L.disease_state_ids);
    expect(text).toContain('Allowed: A, B, C, D, NA');
  });
});

describe('bulk upload of datasets', () => {
  it('signed-in only', async () => {
    const res = await post(PREVIEW, await filled([row()]), undefined, false);
    expect(res.statusCode).toBe(401);
  });

  it('a valid file commits: datasets with grades, diseases, audit entries, one recompute request per measurand', async () => {
    const before = await countDatasets();
    const rows = [
      row({ [L.reference_id]: ref.doi }),
      row({ [L.reference_id]: `PMID:${otherRef.pmid}`, [L.analyte_id]: measurands[1]!.name }),
      row({
        [L.reference_id]: `https://pubmed.ncbi.nlm.nih.gov/${ref.pmid}/`,
        [L.analyte_id]: measurands[1]!.name,
      }),
      row({
        [L.reference_id]: ref.id,
        [L.analyte_id]: measurands[0]!.id,
        [L.state_of_well_being_id]: 'Non-healthy',
        [L.disease_state_ids]: 'Obesity; Diabetes mellitus type II',
        [L.scale]: 'B',
        [L.steady_state]: 'C',
      }),
    ];
    const file = await filled(rows);
    const preview = await post(PREVIEW, file);
    expect(preview.statusCode).toBe(200);
    const p = preview.json<UploadPreview>();
    expect(p.valid).toBe(true);
    expect(p.rows.map((r) => r.row)).toEqual([2, 3, 4, 5]);
    expect(p.rows[0]!.reference).toMatch(new RegExp(`^${ref.id}: `));
    expect(p.rows[1]!.reference).toMatch(new RegExp(`^${otherRef.id}: `));
    expect(p.measurands).toBe(2);
    expect(await countDatasets()).toBe(before);

    await database.db.delete(metaRecomputeRequests);
    const res = await post(COMMIT, file);
    expect(res.statusCode).toBe(201);
    const body = res.json<{ created: { id: number }[]; measurands: number[] }>();
    expect(body.created).toHaveLength(4);
    expect(body.measurands).toEqual([measurands[0]!.id, measurands[1]!.id].sort((a, b) => a - b));
    expect(await countDatasets()).toBe(before + 4);
    const ids = body.created.map((c) => c.id);
    const saved = await database.db
      .select()
      .from(bvSpecifications)
      .where(inArray(bvSpecifications.id, ids))
      .orderBy(bvSpecifications.id);
    expect(saved.map((d) => d.referenceId)).toEqual([ref.id, otherRef.id, ref.id, ref.id]);
    expect(saved[3]!.scale).toBe('B');
    expect(saved[3]!.steadyState).toBe('C');
    expect(saved[0]!.samplingTimesStartTime).toBe('07:00');
    expect(saved[0]!.includeInMetaAnalysis).toBe(true);
    const diseases = await database.db
      .select()
      .from(bvSpecificationDiseaseStates)
      .where(eq(bvSpecificationDiseaseStates.bvSpecificationId, ids[3]!));
    expect(diseases).toHaveLength(2);
    const audits = await database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'bv_specification'), inArray(auditLog.entityId, ids)));
    expect(audits.map((a) => a.action)).toEqual(['create', 'create', 'create', 'create']);
    // The outbox: one request per measurand touched, under one tracker record.
    const requests = await database.db.select().from(metaRecomputeRequests);
    expect(requests.map((r) => r.analyteId).sort((a, b) => a - b)).toEqual(body.measurands);
    const tracker = await database.db.select().from(jobs).where(eq(jobs.id, requests[0]!.jobIds[0]!));
    expect(tracker[0]!.progressMax).toBe(2);
    // Its cause: an import of datasets, by the uploader's role (no single dataset names it).
    for (const r of requests) {
      expect(r).toMatchObject({ causeKind: 'import', causeDatasetId: null, causeRole: 'admin' });
    }

    // The same file again: every Unique Identifier is now taken, nothing is written.
    const again = await post(COMMIT, file);
    expect(again.statusCode).toBe(422);
    expect(again.json().fields[0]).toEqual({
      path: 'row 2.Unique Identifier',
      message: expect.stringContaining('already has the Unique Identifier'),
    });
    expect(await countDatasets()).toBe(before + 4);
  });

  it('one bad cell: 422 naming its row and column, the form’s message, nothing written', async () => {
    const before = await countDatasets();
    const file = await filled([row(), row({ [L.estimates_of_cvi]: -1 }), row()]);
    const res = await post(COMMIT, file);
    expect(res.statusCode).toBe(422);
    const body = res.json();
    expect(body.fields).toEqual([
      { path: `row 3.${L.estimates_of_cvi}`, message: DATASET_MESSAGES.nonNegative },
    ]);
    expect(body.message).toBe(
      `Row 3, ${L.estimates_of_cvi}: ${DATASET_MESSAGES.nonNegative} Nothing was saved.`,
    );
    expect(await countDatasets()).toBe(before);
  });

  it('the preview lists every problem by cell: unknown matrix, reference, grade, missing values, cross-field rules', async () => {
    const file = await filled([
      row({ [L.matrix_id]: 'Serumm', [L.scale]: 'C', [L.unique_identifier]: '' }),
      row({
        [L.reference_id]: 'PMID:1',
        [L.state_of_well_being_id]: 'Non-healthy',
        [L.sampling_times_end_time]: null,
      }),
      row({
        [L.reference_id]: '10.9999/nope',
        [L.analyte_id]: 'Unobtainium',
        [L.number_of_subjects]: 'twenty',
      }),
      row({ [L.reference_id]: '', [L.matrix_id]: '' }),
      row(),
    ]);
    const res = await post(PREVIEW, file);
    expect(res.statusCode).toBe(200);
    const p = res.json<UploadPreview>();
    expect(p.valid).toBe(false);
    const errs = (n: number) =>
      p.rows.find((r) => r.row === n)!.errors.map((e) => `${e.column}: ${e.message}`);
    expect(errs(2)).toEqual([
      `${L.matrix_id}: Unknown matrix "Serumm": choose one from the list.`,
      `${L.unique_identifier}: ${DATASET_MESSAGES.uniqueIdentifier}`,
      `${L.scale}: QI1 Scale: grade C is not allowed (allowed: A, B, NA).`,
    ]);
    expect(errs(3)).toEqual([
      `${L.reference_id}: No reference in bvdb has the PubMed id 1: add the reference first.`,
      `${L.disease_state_ids}: ${DATASET_MESSAGES.diseaseStates}`,
      `${L.sampling_times_end_time}: ${DATASET_MESSAGES.samplingTimes}`,
    ]);
    expect(errs(4)).toEqual([
      `${L.analyte_id}: Unknown measurand "Unobtainium": choose one from the list.`,
      `${L.reference_id}: No reference in bvdb has the DOI 10.9999/nope: add the reference first.`,
      `${L.number_of_subjects}: ${DATASET_MESSAGES.nonNegative}`,
    ]);
    expect(errs(5)).toEqual([
      `${L.reference_id}: ${DATASET_MESSAGES.reference}`,
      `${L.matrix_id}: ${DATASET_MESSAGES.matrix}`,
    ]);
    expect(errs(6)).toEqual([]);
    expect(p.error_count).toBe(11);
  });

  it('a plain number is a bvdb reference id; a PMID written bare gets a hint', async () => {
    const file = await filled([row({ [L.reference_id]: Number(otherRef.pmid) })]);
    const p = (await post(PREVIEW, file)).json();
    expect(p.rows[0].errors[0].message).toBe(
      `There is no reference with id ${otherRef.pmid} (a reference has the PubMed id ${otherRef.pmid}: write PMID:${otherRef.pmid}).`,
    );
  });

  it('a CSV with the same headers (or the API field names) is read too', async () => {
    const csv = [
      'analyte_id,Reference,Unique Identifier,Matrix,' + QUALITY_ITEMS.map((q) => q.key).join(','),
      `${measurands[2]!.id},${ref.doi},CSV-1,Plasma,` + QUALITY_ITEMS.map(() => 'A').join(','),
    ].join('\n');
    const p = (await post(PREVIEW, csv, 'rows.csv')).json();
    expect(p.problems).toEqual([]);
    expect(p.rows[0]).toMatchObject({ measurand: measurands[2]!.name, matrix: 'Plasma', errors: [] });
  });

  it('bad files: not a workbook, truncated, an old .xls, unknown columns, no rows, too large — nothing written', async () => {
    const before = await countDatasets();
    const good = await filled([row()]);
    const cases: [Buffer | string, string, number, RegExp][] = [
      ['%PDF-1.4 not a sheet', 'datasets.xlsx', 400, /not an \.xlsx workbook/],
      ['%PDF-1.4 not a sheet', 'paper.pdf', 400, /not an \.xlsx workbook/],
      [good.subarray(0, Math.floor(good.length / 2)), 'datasets.xlsx', 400, /incomplete|truncated/],
      [Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 1, 2, 3, 4]), 'old.xls', 400, /old Excel \.xls/],
      [Buffer.alloc(9 * 1024 * 1024, 0x20), 'huge.csv', 413, /too large/],
    ];
    for (const [body, name, status, message] of cases) {
      const res = await post(COMMIT, body, name);
      expect(res.statusCode, name).toBe(status);
      expect(res.json().message).toMatch(message);
    }
    const unknown = await post(COMMIT, 'Measurand,Colour\nSodium,red\n', 'x.csv');
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json<ApiError>().fields!.map((f) => f.path)).toEqual(
      expect.arrayContaining(['file.Colour', `file.${L.reference_id}`]),
    );
    const empty = await post(COMMIT, await filled([]));
    expect(empty.statusCode).toBe(422);
    expect(empty.json().message).toMatch(/no rows/);
    expect(await countDatasets()).toBe(before);
  });
});
