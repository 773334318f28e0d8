import { roundHalfUp } from './rounding.js';

/**
 * A kept test menu's values and what changed since they were kept (issue 32.4, decision 064). The
 * values are stored with the menu as the sheet showed them; opening the menu again recomputes the
 * sheet on today's data and compares test by test. Pure: no I/O, no dates but the ones given.
 */

/** The estimate a test used, as kept: enough to name a new version or new numbers. */
export interface MenuKeptEstimate {
  estimate_id: number | null;
  version: number | null;
  median: number;
  lower: number | null;
  upper: number | null;
  n: number | null;
}

export type MenuKeptJudgement = 'optimal' | 'desirable' | 'minimum' | 'none' | null;
type Measures<T> = { imprecision: T; bias: T; total_error: T; mau: T };
type Levels<T> = { optimal: T; desirable: T; minimum: T };

/** One test's values as kept with the menu (the sheet's numbers that a change would move). */
export interface MenuKeptTest {
  line: number;
  /** What the lab called the test (its name, else its code). */
  label: string;
  match: { measurand_id: number; display_name: string; matrix: string } | null;
  cvi: MenuKeptEstimate | null;
  cvg: MenuKeptEstimate | null;
  /** The specification of every level and measure at the point estimates. */
  specs: Levels<Measures<number | null>> | null;
  aps_met: Measures<MenuKeptJudgement> | null;
  sigma: Levels<number | null> | null;
  rcv: { up: number; down: number } | null;
  ii: number | null;
  ii_with_cva: number | null;
  prri_useful: boolean | null;
}

export type MenuChangeKind =
  'match' | 'estimate' | 'specification' | 'judgement' | 'sigma' | 'rcv' | 'ii' | 'prri';

/** One difference between a kept value and today's, in words with before → now. */
export interface MenuChange {
  line: number;
  /** The test as the lab named it, and the measurand it matched (now, else before). */
  test: string;
  kind: MenuChangeKind;
  /** What changed, e.g. "CVI", "Imprecision (desirable specification)", "Sigma (desirable)". */
  what: string;
  before: string;
  now: string;
}

const MEASURE_NAMES: Record<keyof Measures<unknown>, string> = {
  imprecision: 'Imprecision',
  bias: 'Bias',
  total_error: 'Total error',
  mau: 'Measurement uncertainty',
};
const LEVELS = ['optimal', 'desirable', 'minimum'] as const;
const MEASURES = ['imprecision', 'bias', 'total_error', 'mau'] as const;

/** A value as the sheet shows it: the decimals a reader compares (1 for %, 2 for II and sigma). */
export const shown = (v: number | null | undefined, decimals: number, unit = ''): string =>
  v === null || v === undefined || !Number.isFinite(v)
    ? '—'
    : `${roundHalfUp(v, decimals).toFixed(decimals)}${unit}`;

const pct = (v: number | null | undefined) => shown(v, 1, ' %');

/** An estimate in words: "5.6 % (4.9–6.4 %, N 12, version 2)". */
export function estimateInWords(e: MenuKeptEstimate | null): string {
  if (!e) return 'none';
  const limits = e.lower !== null && e.upper !== null ? `${shown(e.lower, 1)}–${pct(e.upper)}` : null;
  const parts = [
    limits,
    e.n !== null ? `N ${e.n}` : null,
    e.version !== null ? `version ${e.version}` : null,
  ];
  const inner = parts.filter((p): p is string => p !== null).join(', ');
  return inner ? `${pct(e.median)} (${inner})` : pct(e.median);
}

const matchInWords = (m: MenuKeptTest['match']) => (m ? `${m.display_name} in ${m.matrix}` : 'not matched');
const judgementInWords = (j: MenuKeptJudgement | undefined) => (j == null ? 'not judged' : j);
const yesNo = (b: boolean | null) => (b === null ? '—' : b ? 'yes' : 'no');

/**
 * Every difference between one test's kept values and today's: the match (gone or another one), each
 * estimate (a new version, or numbers that differ as shown), the specifications of the menu's level,
 * the judgement of each measure, sigma of each level, the RCV, the II and the PRRI advice. Numbers
 * are compared as the sheet shows them, so a difference below its rounding is no change.
 */
export function menuTestChanges(
  before: MenuKeptTest,
  now: MenuKeptTest | null,
  level: (typeof LEVELS)[number] = 'desirable',
): MenuChange[] {
  const test = now?.match?.display_name ?? before.match?.display_name ?? before.label;
  const out: MenuChange[] = [];
  const add = (kind: MenuChangeKind, what: string, b: string, n: string) => {
    if (b !== n)
      out.push({
        line: before.line,
        test: before.label === test ? test : `${before.label} (${test})`,
        kind,
        what,
        before: b,
        now: n,
      });
  };
  const m0 = before.match;
  const m1 = now?.match ?? null;
  if (!now || (m0 && !m1)) {
    add('match', 'Match', matchInWords(m0), 'no longer matched');
    return out;
  }
  if (m0?.measurand_id !== m1?.measurand_id || m0?.matrix !== m1?.matrix) {
    add('match', 'Match', matchInWords(m0), matchInWords(m1));
    // Another measurand: its numbers are another test's, not a change of this one.
    if (m0) return out;
  }
  const estimates = [
    ['CVI', before.cvi, now.cvi],
    ['CVG', before.cvg, now.cvg],
  ] as const;
  for (const [what, b, n] of estimates) {
    const versionMoved = b?.version != null && n?.version != null && b.version !== n.version;
    const words = [estimateInWords(b), estimateInWords(n)] as const;
    if (words[0] !== words[1] || versionMoved) add('estimate', what, words[0], words[1]);
  }
  for (const m of MEASURES) {
    add(
      'specification',
      `${MEASURE_NAMES[m]} (${level} specification)`,
      pct(before.specs?.[level][m]),
      pct(now.specs?.[level][m]),
    );
  }
  for (const m of MEASURES) {
    add(
      'judgement',
      `${MEASURE_NAMES[m]} meets`,
      judgementInWords(before.aps_met?.[m]),
      judgementInWords(now.aps_met?.[m]),
    );
  }
  for (const l of LEVELS) {
    add('sigma', `Sigma (${l})`, shown(before.sigma?.[l], 2), shown(now.sigma?.[l], 2));
  }
  add('rcv', 'RCV up', pct(before.rcv?.up), pct(now.rcv?.up));
  add('rcv', 'RCV down', pct(before.rcv?.down), pct(now.rcv?.down));
  add('ii', 'II', shown(before.ii, 2), shown(now.ii, 2));
  add('ii', 'II with the lab CVA', shown(before.ii_with_cva, 2), shown(now.ii_with_cva, 2));
  add(
    'prri',
    'Personalised reference interval worth offering',
    yesNo(before.prri_useful),
    yesNo(now.prri_useful),
  );
  return out;
}

/**
 * What changed in a whole menu: its kept tests against today's, paired by line (a kept menu's lines
 * never change: the same inputs are judged again). Empty when nothing changed as the sheet shows it.
 */
export function menuChanges(
  before: readonly MenuKeptTest[],
  now: readonly MenuKeptTest[],
  level: (typeof LEVELS)[number] = 'desirable',
): MenuChange[] {
  const today = new Map(now.map((t) => [t.line, t]));
  return before.flatMap((b) => menuTestChanges(b, today.get(b.line) ?? null, level));
}
