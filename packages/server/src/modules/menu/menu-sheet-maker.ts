import type { KeptMenu, MenuResponse, MenuTestInput } from '@bvdb/contract';
import type { WorkerPool } from '../../lib/worker-pool.js';
import type { MenuLine } from './menu-input.js';
import { matchMenu, refsOfMatched, type Suggest } from './menu-judge.js';
import type { MenuReadTask } from './menu-read.js';
import type { MenuSheetAnswer, MenuSheetTask, MenuSheetWant } from './menu-sheet-in-thread.js';
import type { MenuDataSource } from './menu-data.js';

type Level = MenuResponse['parameters']['level'];
/** What a menu thread is asked: to read a body, or to make a sheet. */
export type MenuThreadTask = MenuReadTask | MenuSheetTask;

/**
 * Makes menu sheets, with as little as possible on the event loop (decision 068): the lines are matched
 * here against the kept catalogue (it lives on this thread), and only the matched lines, their
 * estimates and versions go to a menu thread, which judges, presents, checks the answer against the
 * contract and writes its JSON. The event loop sends that text as it comes.
 */
export class MenuSheetMaker {
  constructor(
    private readonly source: MenuDataSource,
    private readonly suggest: Suggest,
    private readonly pool: WorkerPool<MenuThreadTask, unknown>,
  ) {}

  private async run(
    lines: readonly MenuLine[],
    level: Level,
    probability: number,
    want: MenuSheetWant,
    generatedAt = new Date(),
  ): Promise<MenuSheetAnswer> {
    const data = await this.source.current();
    const matched = await matchMenu(data, lines, this.suggest);
    const task: MenuSheetTask = {
      kind: 'sheet',
      matched,
      refs: refsOfMatched(matched, data.refs),
      level,
      probability,
      generatedAt: generatedAt.toISOString(),
      ...want,
    };
    return (await this.pool.run(task)) as MenuSheetAnswer;
  }

  /** The answer of `POST /api/v1/menu` as the text the route sends. */
  async json(lines: readonly MenuLine[], level: Level, probability: number): Promise<string> {
    return (await this.run(lines, level, probability, { want: 'json' })).json!;
  }

  /** The sheet itself, for a workbook. */
  async sheet(lines: readonly MenuLine[], level: Level, probability: number): Promise<MenuResponse> {
    return (await this.run(lines, level, probability, { want: 'sheet' })).sheet!;
  }

  /** The values to keep with a menu today, as JSON text, and when they were taken. */
  async keep(
    lines: readonly MenuLine[],
    level: Level,
    probability: number,
  ): Promise<{ keptJson: string; keptAt: Date }> {
    const keptAt = new Date();
    const answer = await this.run(lines, level, probability, { want: 'keep' }, keptAt);
    return { keptJson: answer.keptJson!, keptAt };
  }

  /** A kept menu opened again: the whole answer of `GET /api/v1/menus/{id}` as text. */
  async reopen(menu: KeptMenu, lines: MenuTestInput[], keptJson: string): Promise<string> {
    const answer = await this.run(linesOf(lines), menu.level, menu.probability, {
      want: 'reopen',
      menu,
      lines,
      keptJson,
    });
    return answer.json!;
  }

  /** A kept menu opened again for its workbook: today's sheet and the number of changes. */
  async reopenSheet(
    menu: KeptMenu,
    lines: MenuTestInput[],
    keptJson: string,
  ): Promise<{ sheet: MenuResponse; changes: number }> {
    const answer = await this.run(linesOf(lines), menu.level, menu.probability, {
      want: 'reopen-sheet',
      menu,
      lines,
      keptJson,
    });
    return { sheet: answer.sheet!, changes: answer.changes! };
  }
}

/** A kept menu's lines, numbered 1…N as when it was kept. */
export const linesOf = (tests: readonly MenuTestInput[]): MenuLine[] =>
  tests.map((input, i) => ({ line: i + 1, input }));
