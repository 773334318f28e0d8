import { APPLICATIONS_SOURCES, type Applications, type ApplicationsRow } from '@bvdb/contract';
import type { ExportNotice } from '../../lib/export-notice.js';
import type { TableFileInput } from '../exports/index.js';

type Value = ApplicationsRow['aps']['bias'];
type Estimate = ApplicationsRow['cvi'];

const LEVEL_LABEL = { minimum: 'Minimum', desirable: 'Desirable', optimal: 'Optimal' } as const;

const estimateHeaders = (name: string) => [
  `${name} %`,
  `${name} lower`,
  `${name} upper`,
  `${name} limits`,
  `${name} N`,
  `${name} estimate id`,
  `${name} updated`,
];
const estimateCells = (e: Estimate) =>
  e
    ? [e.median, e.lower, e.upper, e.limits, e.number_used, e.id, e.updated_at]
    : [null, null, null, null, null, null, null];

/**
 * A value's columns: the number (empty when there is none: a numeric column holds numbers only,
 * issue 42.9), its range, and — last, added in 1.2 — why there is no number, in words.
 */
const valueHeaders = (name: string) => [
  name,
  `${name} range lower`,
  `${name} range upper`,
  `${name} range is over`,
  `${name} missing because`,
];
const valueCells = (v: Value) => [
  v.value ?? null,
  v.range?.lower ?? null,
  v.range?.upper ?? null,
  v.range?.limits ?? null,
  v.value === null ? (v.why ?? 'not computed') : null,
];

/**
 * The summary table as a file (issue 32.1): one row per measurand and matrix, the same numbers as
 * `/api/v1/applications` (rounded like every export), and in the "Read me" the parameters, the
 * formulas' sources, the release and the data licence.
 */
export function applicationsTable(
  table: Applications,
  notice: ExportNotice,
  generatedAt: Date,
): TableFileInput {
  const p = table.parameters;
  const level = LEVEL_LABEL[p.level];
  const headers = [
    'Measurand',
    'Matrix',
    'Displayed estimate',
    ...estimateHeaders('CVI'),
    ...estimateHeaders('CVG'),
    ...valueHeaders(`${level} CVA %`),
    ...valueHeaders(`${level} bias %`),
    ...valueHeaders(`${level} TEa %`),
    ...valueHeaders(`${level} MAU %`),
    ...valueHeaders('RCV up %'),
    ...valueHeaders('RCV down %'),
    'RCV uses CVA %',
    'RCV CVA is',
    ...valueHeaders('II'),
    'Measurand id',
    // Only with facets (issue 47.3), last: without them the file is what it was.
    ...(table.population ? ['Population'] : []),
  ];
  const rows = table.data.map((r) => [
    r.display_name,
    r.matrix,
    r.headline ? 'yes' : 'no',
    ...estimateCells(r.cvi),
    ...estimateCells(r.cvg),
    ...valueCells(r.aps.imprecision),
    ...valueCells(r.aps.bias),
    ...valueCells(r.aps.total_error),
    ...valueCells(r.aps.mau),
    ...valueCells(r.rcv.up),
    ...valueCells(r.rcv.down),
    r.rcv.cva,
    r.rcv.cva_source === 'user' ? 'given by the user' : 'desirable (0.5 × CVI)',
    ...valueCells(r.ii),
    r.measurand_id,
    ...(table.population ? [r.population?.sentence ?? null] : []),
  ]);
  return {
    title: 'BV and performance specifications',
    headers,
    rows,
    generatedAt,
    notes: [
      ['APS level', level],
      ['RCV probability', `${p.probability} (either direction, z ${p.z.toFixed(3)})`],
      ['RCV CVA', p.cva === null ? 'desirable imprecision of each row (0.5 × CVI)' : `${p.cva} % (given)`],
      [
        'Matrices',
        p.matrices === 'all' ? 'every matrix with an estimate' : 'displayed estimates (headline matrix)',
      ],
      ...(table.population ? [['Population', table.population.sentence] as [string, string]] : []),
      ['APS source', APPLICATIONS_SOURCES.aps],
      ['RCV source', APPLICATIONS_SOURCES.rcv],
      ['II source', APPLICATIONS_SOURCES.ii],
      ['Ranges', APPLICATIONS_SOURCES.ranges],
      ['bvdb version', notice.version],
      ['Data licence', notice.licence],
    ],
  };
}
