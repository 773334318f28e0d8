import {
  DomainInputError,
  limitsKindOf,
  matchMenuLine,
  menuTest,
  type MenuCandidate,
  type MenuMatch,
} from '@bvdb/domain';
import { AppError } from '../../lib/app-error.js';
import { refKeyOf, workbenchEstimateOf, type EstimateRefs, type MetaRow } from '../meta-analysis/index.js';
import type { MenuLine } from './menu-input.js';
import type { JudgedLine, LinePopulation, PopulationEstimate } from './menu.presenter.js';
import type { MenuData } from './menu-data.js';

/** Nearest names offered for a line that names nothing known (from the site's measurand search). */
export type Suggest = (text: string) => Promise<{ id: number }[]>;

const SUGGESTIONS = 5;
/** Lines matched between two lets-go of the event loop. */
const LINES_PER_STEP = 10;

/** A line matched (or not) with the estimates it is judged against: what the menu thread needs. */
export interface MatchedLine {
  line: MenuLine;
  match: MenuMatch;
  cvi: MetaRow | null;
  cvg: MetaRow | null;
  /** The match has estimates in its matrix: the line is judged. */
  judged: boolean;
  /** With facets (issue 47.3): the population's estimates, which the line is judged with instead. */
  population?: LinePopulation;
}

const populationEstimateAsWorkbench = (e: PopulationEstimate | null) =>
  e ? { median: e.median, lower: e.lower, upper: e.upper, limits: limitsKindOf(e.method) } : null;

/** The nearest measurands with an estimate, each in its headline matrix: what to choose from, never chosen. */
async function suggestionsFor(line: MenuLine, data: MenuData, suggest: Suggest): Promise<MenuCandidate[]> {
  const text = line.input.name ?? line.input.code ?? '';
  if (!text) return [];
  const out: MenuCandidate[] = [];
  for (const { id } of await suggest(text)) {
    const entry = data.catalogue.byId.get(id);
    const headline = entry?.matrices[0];
    if (entry && headline) out.push({ measurandId: id, displayName: entry.displayName, matrix: headline });
    if (out.length >= SUGGESTIONS) break;
  }
  return out;
}

/**
 * Every line of a menu matched against the kept catalogue (issue 32.2, on the event loop: the
 * catalogue lives here), in the order given, with the estimates of its match. An unmatched line
 * without candidates of its own gets the nearest names of the search to choose from.
 */
export async function matchMenu(
  data: MenuData,
  lines: readonly MenuLine[],
  suggest: Suggest,
): Promise<MatchedLine[]> {
  const out: MatchedLine[] = [];
  for (const [i, line] of lines.entries()) {
    // The event loop let go every few lines: two hundred lines with typos at 100× the demo data,
    // each searched for suggestions, held it for over 100 ms at once (issue 44.1).
    if (i > 0 && i % LINES_PER_STEP === 0) await new Promise((resolve) => setImmediate(resolve));
    const { name, code, matrix } = line.input;
    let match: MenuMatch = matchMenuLine(data.catalogue, {
      name: name ?? null,
      code: code ?? null,
      matrix: matrix ?? null,
    });
    if (match.status !== 'matched' && match.candidates.length === 0) {
      const suggested = await suggestionsFor(line, data, suggest);
      match = { ...match, candidates: suggested, candidatesTotal: suggested.length };
    }
    const group = match.match ? data.groups.get(match.match.measurandId)?.get(match.match.matrix) : undefined;
    out.push({ line, match, cvi: group?.cvi ?? null, cvg: group?.cvg ?? null, judged: group !== undefined });
  }
  return out;
}

/** The estimate versions of the results the matched lines use: all the presenter reads of the refs. */
export function refsOfMatched(matched: readonly MatchedLine[], refs: EstimateRefs): EstimateRefs {
  const used: EstimateRefs = new Map();
  for (const m of matched)
    for (const row of [m.cvi, m.cvg]) {
      if (!row) continue;
      const key = refKeyOf(row.meta);
      const ref = refs.get(key);
      if (ref) used.set(key, ref);
    }
  return used;
}

/** Each matched line judged (issue 32.3): the formulas, in the menu thread. */
export function judgeMatched(matched: readonly MatchedLine[], probability: number): JudgedLine[] {
  return matched.map(({ line, match, cvi, cvg, judged, population }) => {
    let result = null;
    // A population without a CVI here: the line is not judged (never with the global estimate).
    if (judged && (!population || population.cvi)) {
      try {
        result = menuTest({
          cvi: population ? populationEstimateAsWorkbench(population.cvi) : workbenchEstimateOf(cvi),
          cvg: population ? populationEstimateAsWorkbench(population.cvg) : workbenchEstimateOf(cvg),
          cva: line.input.cva ?? null,
          bias: line.input.bias ?? null,
          te: line.input.te ?? null,
          probability,
        });
      } catch (err) {
        if (err instanceof DomainInputError)
          throw new AppError('bad_request', `Line ${line.line}: ${err.message}`);
        throw err;
      }
    }
    return { line, match, cvi, cvg, result, ...(population ? { population } : {}) };
  });
}
