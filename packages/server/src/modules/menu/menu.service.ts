import {
  facetSelectionOf,
  MENU_MAX_TESTS,
  MENU_MAX_TEXT_BYTES,
  type FacetQuery,
  type MenuQuery,
} from '@bvdb/contract';
import type { FacetSelection } from '@bvdb/domain';
import type { ServiceDeps } from '../../lib/service-deps.js';
import { checkJsonLines, checkTextBytes } from '../../lib/upload-reader.js';
import { WorkerPool } from '../../lib/worker-pool.js';
import { populationOf } from '../meta-analysis/index.js';
import { AnalyteSearch } from '../search/index.js';
import { MenuDataSource } from './menu-data.js';
import { tooManyTests, type ReadMenu } from './menu-input.js';
import type { MenuReadTask } from './menu-read.js';
import { MenuSheetMaker, type MenuPopulation, type MenuThreadTask } from './menu-sheet-maker.js';
import { TestLookup } from './test-lookup.js';
import { buildMenuWorkbook, type MenuWorkbook } from './menu-workbook.js';

/**
 * Threads for the menus: reading a file or body, and making a sheet of lines matched on the event
 * loop (decision 068). A thousand tests is the most a menu holds; the time and heap limits end a
 * thread that goes past them.
 */
export const createMenuPool = () =>
  new WorkerPool<MenuThreadTask, unknown>({
    from: import.meta.url,
    file: './menu.thread.js',
    timeoutMs: 15_000,
    resourceLimits: { maxOldGenerationSizeMb: 256 },
    tooLong: { code: 'unprocessable', message: 'The menu took too long: send fewer tests.' },
    tooLarge: {
      code: 'payload_too_large',
      message: 'The menu needs too much memory: send fewer tests.',
    },
    busy: 'The menu service is busy; try again in a few seconds.',
  });
export type MenuPool = ReturnType<typeof createMenuPool>;

/** A menu as sent: a JSON body, CSV text, or an uploaded file (.xlsx or CSV). */
export type MenuUpload = MenuReadTask;

/**
 * Checked on the event loop before a JSON body is cloned into a thread: an object with a `tests`
 * array of at most MENU_MAX_TESTS (422 past the count); the contract checks each test in the thread.
 */
export function checkJsonShape(body: unknown): void {
  checkJsonLines(body, {
    key: 'tests',
    max: MENU_MAX_TESTS,
    tooMany: (n) => tooManyTests(n).message,
    send: 'Send {"tests": [{"name", "code", "matrix", "unit", "cva", "bias", "te"}, ...]}, CSV text (Content-Type: text/csv) or a file (multipart/form-data, part "file")',
  });
}

/**
 * A laboratory's test menu against BV (issue 32.2–3, decisions 059 and 068): nothing stored. The
 * menu is read on a pool thread (its size and JSON shape checked here first); its lines are matched
 * here against the catalogue kept per data generation, and the sheet is made on the same pool.
 */
export class MenuService {
  /** Makes the sheets, for this service and the kept menus. */
  readonly sheets: MenuSheetMaker;
  /** Finds one test by the same catalogue (the change verdict's look-up). */
  readonly tests: TestLookup;

  constructor(
    private readonly deps: Pick<ServiceDeps, 'db' | 'cache' | 'config'>,
    private readonly pool: MenuPool,
  ) {
    const search = new AnalyteSearch(deps);
    const source = new MenuDataSource(deps);
    this.sheets = new MenuSheetMaker(source, (text) => search.suggest(text), pool);
    this.tests = new TestLookup(source);
    this.warmUp = () => search.warmUp();
  }

  /**
   * The search that suggests names for unmatched lines, made whole once the server is ready: the
   * first menu after a start, typos and all, then builds no index on the event loop (issue 44.1).
   */
  readonly warmUp: () => Promise<void>;

  /** The menu's lines (and a JSON body's parameters), read on a pool thread. */
  async read(upload: MenuUpload): Promise<ReadMenu> {
    switch (upload.kind) {
      case 'file':
        // A copy: the upload's bytes may sit in a larger shared buffer, which would be cloned whole.
        return this.readOffThread({ ...upload, bytes: new Uint8Array(upload.bytes) });
      case 'text':
        checkTextBytes(upload.text, MENU_MAX_TEXT_BYTES);
        return this.readOffThread(upload);
      case 'json':
        checkJsonShape(upload.body);
        return this.readOffThread(upload);
    }
  }

  private async readOffThread(task: MenuReadTask): Promise<ReadMenu> {
    return (await this.pool.run(task)) as ReadMenu;
  }

  /** The answer of `POST /api/v1/menu` as its JSON text (made and checked in a menu thread). */
  async json(read: ReadMenu, asked: MenuAsked): Promise<string> {
    const { level, probability } = parametersOf(read, asked);
    return this.sheets.json(read.lines, level, probability, await this.populationOf(asked));
  }

  /** The population the facets name (issue 47.3), or none; an unknown value is a 400 naming the allowed ones. */
  async populationOf(asked: Partial<FacetQuery>): Promise<MenuPopulation | undefined> {
    return this.populationOfSelection(facetSelectionOf(asked));
  }

  /** The population of a facet selection (a kept menu's, decision 101), or none when it is empty. */
  async populationOfSelection(selection: FacetSelection): Promise<MenuPopulation | undefined> {
    const population = await populationOf(this.deps.db, selection);
    return population ? { population, deps: this.deps } : undefined;
  }

  /** The same sheet as a workbook, with its file name (dated by the sheet). */
  async workbook(read: ReadMenu, asked: MenuAsked): Promise<MenuWorkbook> {
    const { level, probability } = parametersOf(read, asked);
    const sheet = await this.sheets.sheet(read.lines, level, probability, await this.populationOf(asked));
    return buildMenuWorkbook(
      sheet,
      this.deps.config,
      `bvdb_test_menu_${sheet.parameters.generated_at.slice(0, 10)}.xlsx`,
    );
  }
}

/** What a menu is asked with: the level, the probability and — optionally — a population (issue 47.3). */
type MenuAsked = Pick<MenuQuery, 'level' | 'probability'> & Partial<FacetQuery>;

/** A JSON body's own level and probability win over the query's. */
const parametersOf = (read: ReadMenu, asked: Pick<MenuQuery, 'level' | 'probability'>) => ({
  level: read.level ?? asked.level,
  probability: read.probability ?? asked.probability,
});
