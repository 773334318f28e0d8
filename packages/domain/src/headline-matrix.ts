/**
 * The headline matrix of a measurand: the one matrix (or consolidation) whose CVI and CVG a page, a
 * legacy API answer or a calculator shows first. One rule, used everywhere (docs/decisions/007):
 *   1. matrices with both a CVI and a CVG estimate (a median) come before those with one;
 *   2. then the most studies behind them (CVI studies + CVG studies);
 *   3. then the lowest matrix id, so the choice is stable between calls.
 * Returns null when no matrix has an estimate.
 */
export interface HeadlineCandidate {
  /** Matrix id, or the consolidation id for a consolidated group. */
  matrixKey: number;
  /** True when matrixKey names a consolidation (consolidations sort after matrices on ties). */
  consolidated?: boolean;
  varType: ':cvi' | ':cvg';
  median: number | null;
  numberUsed: number;
}

interface Group {
  matrixKey: number;
  consolidated: boolean;
  hasCvi: boolean;
  hasCvg: boolean;
  studies: number;
}

const present = (v: number | null): boolean => v !== null && Number.isFinite(v);

export function headlineMatrixOf(
  metas: readonly HeadlineCandidate[],
): { matrixKey: number; consolidated: boolean } | null {
  const groups = new Map<string, Group>();
  for (const m of metas) {
    if (!present(m.median)) continue;
    const consolidated = m.consolidated ?? false;
    const id = `${consolidated ? 'c' : 'm'}${m.matrixKey}`;
    const g = groups.get(id) ?? {
      matrixKey: m.matrixKey,
      consolidated,
      hasCvi: false,
      hasCvg: false,
      studies: 0,
    };
    if (m.varType === ':cvi') g.hasCvi = true;
    else g.hasCvg = true;
    g.studies += Math.max(0, m.numberUsed);
    groups.set(id, g);
  }
  const ranked = [...groups.values()].sort(
    (a, b) =>
      Number(b.hasCvi && b.hasCvg) - Number(a.hasCvi && a.hasCvg) ||
      b.studies - a.studies ||
      Number(a.consolidated) - Number(b.consolidated) ||
      a.matrixKey - b.matrixKey,
  );
  const top = ranked[0];
  return top ? { matrixKey: top.matrixKey, consolidated: top.consolidated } : null;
}
