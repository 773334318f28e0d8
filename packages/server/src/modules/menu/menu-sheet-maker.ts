import type { KeptMenu, MenuResponse, MenuTestInput } from '@bvdb/contract';
import type { WorkerPool } from '../../lib/worker-pool.js';
import type { MenuLine } from './menu-input.js';
import type { ServiceDeps } from '../../lib/service-deps.js';
import {
  forEachMeasurandInSteps,
  keptFacetedEstimates,
  populationResultOf,
  populationRowSentence,
  populationSentence,
  studiesOf,
  type FacetResult,
  type Population,
} from '../meta-analysis/index.js';
import { matchMenu, refsOfMatched, type MatchedLine, type Suggest } from './menu-judge.js';
import type { PopulationEstimate } from './menu.presenter.js';
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
    population?: MenuPopulation,
  ): Promise<MenuSheetAnswer> {
    const data = await this.source.current();
    const matched = await matchMenu(data, lines, this.suggest);
    if (population) await withLinePopulations(matched, population);
    const task: MenuSheetTask = {
      kind: 'sheet',
      matched,
      refs: refsOfMatched(matched, data.refs),
      level,
      probability,
      generatedAt: generatedAt.toISOString(),
      ...(population ? { population: populationAnswerOf(population) } : {}),
      ...want,
    };
    return (await this.pool.run(task)) as MenuSheetAnswer;
  }

  /** The answer of `POST /api/v1/menu` as the text the route sends. */
  async json(
    lines: readonly MenuLine[],
    level: Level,
    probability: number,
    population?: MenuPopulation,
  ): Promise<string> {
    return (await this.run(lines, level, probability, { want: 'json' }, new Date(), population)).json!;
  }

  /** The sheet itself, for a workbook. */
  async sheet(
    lines: readonly MenuLine[],
    level: Level,
    probability: number,
    population?: MenuPopulation,
  ): Promise<MenuResponse> {
    return (await this.run(lines, level, probability, { want: 'sheet' }, new Date(), population)).sheet!;
  }

  /** The values to keep with a menu today (for its population, if any), as JSON text, and when they were taken. */
  async keep(
    lines: readonly MenuLine[],
    level: Level,
    probability: number,
    population?: MenuPopulation,
  ): Promise<{ keptJson: string; keptAt: Date }> {
    const keptAt = new Date();
    const answer = await this.run(lines, level, probability, { want: 'keep' }, keptAt, population);
    return { keptJson: answer.keptJson!, keptAt };
  }

  /**
   * A kept menu opened again: the whole answer of `GET /api/v1/menus/{id}` as text; judged for its
   * population when it was kept for one (decision 101).
   */
  async reopen(
    menu: KeptMenu,
    lines: MenuTestInput[],
    keptJson: string,
    population?: MenuPopulation,
  ): Promise<string> {
    const answer = await this.run(
      linesOf(lines),
      menu.level,
      menu.probability,
      { want: 'reopen', menu, lines, keptJson },
      new Date(),
      population,
    );
    return answer.json!;
  }

  /** A kept menu opened again for its workbook: today's sheet and the number of changes. */
  async reopenSheet(
    menu: KeptMenu,
    lines: MenuTestInput[],
    keptJson: string,
    population?: MenuPopulation,
  ): Promise<{ sheet: MenuResponse; changes: number }> {
    const answer = await this.run(
      linesOf(lines),
      menu.level,
      menu.probability,
      { want: 'reopen-sheet', menu, lines, keptJson },
      new Date(),
      population,
    );
    return { sheet: answer.sheet!, changes: answer.changes! };
  }
}

/** A population asked of a menu (issue 47.3), and what computes its estimates (kept per facet set). */
export interface MenuPopulation {
  population: Population;
  deps: Pick<ServiceDeps, 'db' | 'cache'>;
}

/** A population as an answer says it (the menu's `population`, a kept menu's, decision 101). */
export const populationAnswerOf = ({
  population,
}: MenuPopulation): NonNullable<MenuResponse['population']> => ({
  selection: keptSelectionOf(population),
  key: population.key,
  label: population.label,
  sentence: populationSentence(population),
});

/** A population's facet selection as plain JSON (as a kept menu stores it). */
export const keptSelectionOf = (population: Population): Record<string, string[]> =>
  Object.fromEntries(Object.entries(population.selection).map(([k, v]) => [k, [...v]]));

const asLineEstimate = (r: FacetResult | null): PopulationEstimate | null =>
  r && r.result.weightedMedian !== null
    ? {
        median: r.result.weightedMedian,
        lower: r.result.rangeLower,
        upper: r.result.rangeUpper,
        method: r.result.method,
        numberUsed: r.result.n,
      }
    : null;

/**
 * Each judged line given its measurand's estimates for the population, in its matched matrix: one
 * computation per measurand and facet set (kept by the facet service), the event loop let go between
 * measurands. A measurand the population has no estimate for says so on its line.
 */
async function withLinePopulations(matched: MatchedLine[], asked: MenuPopulation): Promise<void> {
  const ids = [
    ...new Set(matched.flatMap((m) => (m.judged && m.match.match ? [m.match.match.measurandId] : []))),
  ];
  const estimates = new Map<number, Awaited<ReturnType<typeof keptFacetedEstimates>>>();
  await forEachMeasurandInSteps(ids, async (id) => {
    estimates.set(id, await keptFacetedEstimates(asked.deps, id, asked.population.selection));
  });
  for (const m of matched) {
    if (!m.judged || !m.match.match) continue;
    const id = m.match.match.measurandId;
    const group = m.cvi?.meta ?? m.cvg?.meta;
    const where = {
      matrixId: group?.matrixId ?? null,
      consolidationId: group?.matrixConsolidationId ?? null,
    };
    const cvi = populationResultOf(estimates.get(id)!, where, ':cvi');
    const cvg = populationResultOf(estimates.get(id)!, where, ':cvg');
    const studies = studiesOf(cvi, cvg);
    m.population = {
      key: asked.population.key,
      analyteId: id,
      cvi: asLineEstimate(cvi),
      cvg: asLineEstimate(cvg),
      studies,
      sentence: populationRowSentence(asked.population, studies),
    };
  }
}

/** A kept menu's lines, numbered 1…N as when it was kept. */
export const linesOf = (tests: readonly MenuTestInput[]): MenuLine[] =>
  tests.map((input, i) => ({ line: i + 1, input }));
