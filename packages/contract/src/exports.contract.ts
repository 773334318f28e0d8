import { z } from 'zod';
import { ErrorSchema } from './common.js';
import { defineRoute } from './route.js';

const xlsxFile = z
  .string()
  .regex(/^\d+\.xlsx$/, 'must be {id}.xlsx')
  .transform((f) => Number(f.slice(0, -'.xlsx'.length)));

export const exportByAnalyte = defineRoute({
  method: 'GET',
  path: '/export_by_analyte/:file',
  summary:
    'Spreadsheet of one measurand: its datasets, its meta-analysis results, citation (`{analyte id}.xlsx`)',
  tags: ['exports'],
  access: 'public',
  produces: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  params: z.object({ file: xlsxFile }),
  responses: { 200: z.unknown(), 400: ErrorSchema, 404: ErrorSchema },
});

export const exportByReference = defineRoute({
  ...exportByAnalyte,
  path: '/export_by_reference/:file',
  summary:
    'Spreadsheet of one reference: its datasets, their meta-analysis results, citation (`{reference id}.xlsx`)',
});

export const exportDatabase = defineRoute({
  method: 'GET',
  path: '/export/:file',
  summary:
    'Every published dataset and meta-analysis result: `bv_database.xlsx` or `bv_database.csv`; ' +
    '`bv_measurand_codes.csv` is the crosswalk of every measurand’s LOINC, NPU and SNOMED CT codes, LOINC’s ' +
    'notice in its `Bvdb-Loinc-Notice` header (as `/api/v1/measurand-codes.csv`, decision 093); ' +
    '`bv_database.json` is the whole database, lossless, with ids and a format version, for `npm run import` ' +
    '(signed in: with unpublished records; `?full=1`, administrators: a complete backup with users, ' +
    'audit trail, mailing list, content pages and PDFs, written to the audit trail `/api/audit/database/1`; ' +
    "an assessor of an open appraisal round gets it without the round's other appraisals, and its " +
    '`withheld` says how many rows per table were left out)',
  tags: ['exports'],
  access: 'public',
  produces: 'application/octet-stream',
  params: z.object({
    file: z.enum(['bv_database.xlsx', 'bv_database.csv', 'bv_database.json', 'bv_measurand_codes.csv']),
  }),
  query: z.object({ full: z.enum(['0', '1']).optional() }),
  responses: { 200: z.unknown(), 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema },
});

export const exportAnalyteUrl = (id: number) => `/export_by_analyte/${id}.xlsx`;
export const exportReferenceUrl = (id: number) => `/export_by_reference/${id}.xlsx`;
export const exportDatabaseUrl = (format: 'xlsx' | 'csv') => `/export/bv_database.${format}`;
