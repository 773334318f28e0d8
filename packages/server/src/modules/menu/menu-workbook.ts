import { MENU_SOURCES, type MenuResponse, type MenuTestResult } from '@bvdb/contract';
import type { Config } from '../../config.js';
import { exportNotice, type ExportNotice } from '../../lib/export-notice.js';
import { buildTableOffThread, type TableFileInput } from '../exports/index.js';

type Range = { lower: number; upper: number; limits: string } | null;
type Judgement = NonNullable<MenuTestResult['aps_met']>['bias'];

const LEVEL_LABEL = { minimum: 'Minimum', desirable: 'Desirable', optimal: 'Optimal' } as const;
const MEASURES = [
  ['imprecision', 'CVA'],
  ['bias', 'Bias'],
  ['total_error', 'TE'],
  ['mau', 'MU'],
] as const;

const judged = (j: Judgement | undefined) => j ?? '—';
/** "desirable (minimum over the CI)" when the point meets a level the interval does not. */
const judgedWithLimits = (t: MenuTestResult, m: (typeof MEASURES)[number][0]) => {
  const point = t.aps_met?.[m];
  const over = t.aps_met_over_limits?.[m];
  return point && over && point !== over ? `${point} (${over} across the limits)` : judged(point);
};
/** A number in a range's text: the typographic minus, so the cell starts with no "-" (issue 42.9). */
const rangeEnd = (v: number) => (v < 0 ? `−${(-v).toFixed(2)}` : v.toFixed(2));
/**
 * A range as plain text ("−13.50 to −11.58 (range)"): never starting with "-", which the export's
 * formula guard would turn into an apostrophe-prefixed "'-13.50 …" that Excel shows literally.
 */
const rangeText = (r: Range) => (r ? `${rangeEnd(r.lower)} to ${rangeEnd(r.upper)} (${r.limits})` : null);
const statusText = (t: MenuTestResult) =>
  t.status === 'matched'
    ? 'matched'
    : `${t.status}: ${t.why ?? ''}${t.candidates.length ? ` — candidates: ${t.candidates.map((c) => `${c.display_name} [${c.matrix}, id ${c.measurand_id}]`).join('; ')}${t.candidates_total > t.candidates.length ? ` and ${t.candidates_total - t.candidates.length} more` : ''}` : ''}`;

/** What a kept menu's workbook says of it in its "Read me". */
export interface KeptMenuNote {
  keptAt: string;
  url: string;
  name: string | null;
  changes: number;
}

/** The menu sheet as an .xlsx file (built in the export worker) and its file name. */
export interface MenuWorkbook {
  bytes: Uint8Array;
  fileName: string;
}

/**
 * The menu sheet's workbook, as `menuTable` lays it out, built in the export worker with the
 * configured notice and site address (the estimates' links).
 */
export async function buildMenuWorkbook(
  answer: MenuResponse,
  config: Pick<Config, 'PUBLIC_URL' | 'DATA_USE_NOTICE' | 'CITATION' | 'DATA_LICENCE'>,
  fileName: string,
  kept?: KeptMenuNote,
): Promise<MenuWorkbook> {
  const siteUrl = (config.PUBLIC_URL ?? '').replace(/\/+$/, '');
  const bytes = await buildTableOffThread('xlsx', menuTable(answer, exportNotice(config), siteUrl, kept));
  return { bytes, fileName };
}

/**
 * The menu sheet as a workbook (issue 32.3): one row per test in the order given, the same numbers
 * as `POST /api/v1/menu` (rounded like every export), and in the "Read me" the date, the parameters,
 * the formulas' sources, the release and the data licence — a page a quality manager can file.
 */
export function menuTable(
  answer: MenuResponse,
  notice: ExportNotice,
  siteUrl: string,
  kept?: KeptMenuNote,
): TableFileInput {
  const p = answer.parameters;
  const level = p.level;
  const headers = [
    'Line',
    'Test',
    'Code',
    'Matrix asked',
    'Unit',
    'Lab CVA %',
    'Lab bias %',
    'Lab TE %',
    'TE is',
    'Lab U % (k = 2)',
    'Match',
    'Measurand',
    'Matrix',
    'Measurand id',
    ...MEASURES.map(([, label]) => `${label} meets`),
    `${LEVEL_LABEL[level]} CVA spec %`,
    `${LEVEL_LABEL[level]} bias spec %`,
    `${LEVEL_LABEL[level]} TEa %`,
    `${LEVEL_LABEL[level]} MAU %`,
    `${LEVEL_LABEL[level]} TEa range`,
    'Sigma optimal',
    'Sigma desirable',
    'Sigma minimum',
    `Sigma ${level} range`,
    'RCV up %',
    'RCV down %',
    'RCV up range',
    'RCV down range',
    'II',
    'II range',
    'II with lab CVA',
    'II with lab CVA range',
    'Personalised RI worth offering',
    'CVI %',
    'CVI limits',
    'CVI estimate id',
    'CVI version',
    'CVG %',
    'CVG estimate id',
    'CVG version',
    'CVI permalink',
    'Estimates as shown that day (API)',
    // Only with facets (issue 47.3), last: without them the sheet is what it was.
    ...(answer.population ? ['Population'] : []),
  ];
  const rows = answer.tests.map((t) => {
    const spec = t.specs?.[level];
    const cvi = t.estimate;
    const cvg = t.estimate_cvg;
    return [
      t.line,
      t.input.name ?? null,
      t.input.code ?? null,
      t.input.matrix ?? null,
      t.input.unit ?? null,
      t.lab.cva,
      t.input.bias ?? null,
      t.lab.te,
      t.lab.te_source,
      t.lab.expanded_uncertainty,
      statusText(t),
      t.match?.display_name ?? null,
      t.match?.matrix ?? null,
      t.match?.measurand_id ?? null,
      ...MEASURES.map(([m]) => (t.status === 'matched' ? judgedWithLimits(t, m) : null)),
      spec?.imprecision.value ?? null,
      spec?.bias.value ?? null,
      spec?.total_error.value ?? null,
      spec?.mau.value ?? null,
      rangeText(spec?.total_error.range ?? null),
      t.sigma?.optimal ?? null,
      t.sigma?.desirable ?? null,
      t.sigma?.minimum ?? null,
      rangeText(t.sigma_ranges?.[level] ?? null),
      t.rcv?.up ?? null,
      t.rcv?.down ?? null,
      rangeText(t.rcv_ranges?.up ?? null),
      rangeText(t.rcv_ranges?.down ?? null),
      t.ii,
      rangeText(t.ii_range),
      t.ii_with_cva,
      rangeText(t.ii_with_cva_range),
      t.prri_useful === null ? null : t.prri_useful ? 'yes' : 'no',
      cvi?.median ?? null,
      cvi && cvi.lower !== null && cvi.upper !== null
        ? `${rangeEnd(cvi.lower)} to ${rangeEnd(cvi.upper)} (${cvi.limits ?? ''})`
        : null,
      cvi?.estimate_id ?? null,
      cvi?.version ?? null,
      cvg?.median ?? null,
      cvg?.estimate_id ?? null,
      cvg?.version ?? null,
      cvi ? `${siteUrl}${cvi.permalink}` : null,
      cvi ? `${siteUrl}${cvi.as_shown}` : null,
      ...(answer.population ? [t.population?.sentence ?? null] : []),
    ];
  });
  return {
    title: 'Test menu against biological variation',
    headers,
    rows,
    generatedAt: new Date(p.generated_at),
    notes: [
      ['Made on', p.generated_at],
      ...(kept
        ? ([
            ['Menu kept on', kept.keptAt],
            ...(kept.name ? [['Menu name', kept.name]] : []),
            ['Menu link', kept.url],
            [
              'Changed since kept',
              kept.changes === 0 ? 'nothing' : `${kept.changes} change(s): see the link`,
            ],
          ] as [string, string][])
        : []),
      ...(answer.population ? [['Population', answer.population.sentence] as [string, string]] : []),
      ['APS level shown', LEVEL_LABEL[level]],
      ['RCV probability', `${p.probability} (either direction, z ${p.z.toFixed(3)})`],
      [
        'Tests',
        `${answer.summary.tests}: ${answer.summary.matched} matched, ${answer.summary.unmatched} unmatched, ${answer.summary.ambiguous} ambiguous`,
      ],
      ...Object.entries(MENU_SOURCES).map(([k, v]): [string, string] => [`Source: ${k}`, v]),
      ['bvdb version', notice.version],
      ['Data licence', notice.licence],
    ],
  };
}
