import { DomainInputError, matchMenuLine, menuTest, type MenuCandidate, type MenuMatch } from '@bvdb/domain';
import { AppError } from '../../lib/app-error.js';
import { workbenchEstimateOf } from '../meta-analysis/results/meta-results.service.js';
import type { MenuLine } from './menu-input.js';
import type { JudgedLine } from './menu.presenter.js';
import type { MenuData } from './menu.service.js';

/** Nearest names offered for a line that names nothing known (from the site's measurand search). */
export type Suggest = (text: string) => Promise<{ id: number }[]>;

const SUGGESTIONS = 5;

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
 * Every line of a menu matched and, when matched, judged (issue 32.2–3), in the order given. An
 * unmatched line without candidates of its own gets the nearest names of the search to choose from.
 */
export async function judgeMenu(
  data: MenuData,
  lines: readonly MenuLine[],
  probability: number,
  suggest: Suggest,
): Promise<JudgedLine[]> {
  const out: JudgedLine[] = [];
  for (const line of lines) {
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
    const cvi = group?.cvi ?? null;
    const cvg = group?.cvg ?? null;
    let result = null;
    if (group) {
      try {
        result = menuTest({
          cvi: workbenchEstimateOf(cvi),
          cvg: workbenchEstimateOf(cvg),
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
    out.push({ line, match, cvi, cvg, result });
  }
  return out;
}
