import {
  KeptMenuResponseSchema,
  MenuResponseSchema,
  type KeptMenu,
  type MenuResponse,
  type MenuTestInput,
} from '@bvdb/contract';
import { menuChanges, workbenchZ, type MenuKeptTest } from '@bvdb/domain';
import { contractJson } from '../../lib/contract-json.js';
import type { EstimateRefs } from '../meta-analysis/index.js';
import { keptValuesOf } from './kept-menus.presenter.js';
import { judgeMatched, type MatchedLine } from './menu-judge.js';
import { presentMenu } from './menu.presenter.js';

type Level = MenuResponse['parameters']['level'];

/**
 * A menu's sheet made in a menu thread (decision 068): the lines were matched on the event loop
 * against the kept catalogue; the formulas, the presenter, the contract's check and JSON run here.
 * `want` says what comes back: the answer's text, the sheet itself (for a workbook), the values to
 * keep (as JSON text), or a kept menu opened again (its whole answer's text, or its sheet and the
 * number of changes).
 */
export type MenuSheetTask = {
  kind: 'sheet';
  matched: MatchedLine[];
  refs: EstimateRefs;
  level: Level;
  probability: number;
  generatedAt: string;
  /** With facets (issue 47.3): the population every line was judged for. */
  population?: MenuResponse['population'];
} & MenuSheetWant;

export type MenuSheetWant =
  | { want: 'json' | 'sheet' | 'keep' }
  | {
      want: 'reopen' | 'reopen-sheet';
      menu: KeptMenu;
      lines: MenuTestInput[];
      /** The values kept with the menu, as the database's JSON text (parsed here, not on the event loop). */
      keptJson: string;
    };

export interface MenuSheetAnswer {
  json?: string;
  sheet?: MenuResponse;
  keptJson?: string;
  changes?: number;
}

export function makeMenuSheetTask(task: MenuSheetTask): MenuSheetAnswer {
  const judged = judgeMatched(task.matched, task.probability);
  const sheet = presentMenu(
    judged,
    task.refs,
    { level: task.level, probability: task.probability, z: workbenchZ(task.probability) },
    new Date(task.generatedAt),
    task.population,
  );
  switch (task.want) {
    case 'json':
      return { json: contractJson(MenuResponseSchema, sheet) };
    case 'sheet':
      return { sheet };
    case 'keep':
      return { keptJson: JSON.stringify(keptValuesOf(sheet)) };
    case 'reopen':
    case 'reopen-sheet': {
      const kept = JSON.parse(task.keptJson) as MenuKeptTest[];
      const changes = menuChanges(kept, keptValuesOf(sheet), task.level);
      if (task.want === 'reopen-sheet') return { sheet, changes: changes.length };
      return {
        json: contractJson(KeptMenuResponseSchema, {
          menu: task.menu,
          lines: task.lines,
          sheet,
          kept,
          changes,
        }),
      };
    }
  }
}
