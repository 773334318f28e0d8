import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { AppError } from '../../lib/app-error.js';
import { WorkerPool } from '../../lib/worker-pool.js';
import type { TestLookup } from '../menu/index.js';
import type { BatchBody, FoundPairTest, PairTest } from './change-verdict-batch.js';
import type { VerdictThreadTask } from './change-verdict-in-thread.js';
import { populationSentence } from '../meta-analysis/index.js';
import {
  findJudgeable,
  type CodeScale,
  type PopulationAsked,
  type UnitsAnswer,
} from './change-verdict.service.js';

/**
 * Threads for the change verdict (decision 092), on the pool every heavy request uses (decision
 * 068's menu threads are the model): UCUM's tables load here, never on the event loop, and a batch
 * of 10,000 pairs is read, judged and written here. Only what needs the kept catalogue, finding each
 * distinct test, runs on the event loop.
 */
export const createVerdictPool = () =>
  new WorkerPool<VerdictThreadTask, unknown>({
    from: import.meta.url,
    file: './change-verdict.thread.js',
    timeoutMs: 20_000,
    // A larger young generation: a batch makes many small short-lived objects (fewer scavenges).
    resourceLimits: { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 64 },
    tooLong: { code: 'unprocessable', message: 'The batch took too long: send fewer pairs.' },
    tooLarge: { code: 'payload_too_large', message: 'The batch needs too much memory: send fewer pairs.' },
    busy: 'The change verdict service is busy; try again in a few seconds.',
  });
export type VerdictPool = ReturnType<typeof createVerdictPool>;

/** Distinct tests found between two turns of the event loop: a batch of 10,000 names never holds it long. */
const FIND_SLICE = 250;
/** UCUM answers kept on the event loop, per unit (and x2's unit): a laboratory uses few. */
const UNITS_KEPT = 2000;

export class VerdictThreads {
  private readonly units = new Map<string, UnitsAnswer>();

  constructor(private readonly pool: VerdictPool) {}

  /**
   * Every change-verdict thread started and UCUM loaded in it (after ready: `lifecycle.afterReady`),
   * so the first batch after a start is as fast as the next; a batch asked meanwhile waits for it.
   */
  readonly warmUp = async (): Promise<void> => {
    await this.pool.warmUp({ kind: 'warm' });
  };

  /** UCUM's answer on a query's units, asked of a thread once per distinct unit (and pair) and kept. */
  readonly checkUnits = async (
    unit: string,
    unit2: string | null,
    scale: CodeScale,
  ): Promise<UnitsAnswer> => {
    const key = `${unit}\u0000${unit2 ?? ''}\u0000${scale?.code ?? ''}\u0000${scale?.unit ?? ''}`;
    const kept = this.units.get(key);
    if (kept) return kept;
    const answer = (await this.pool.run({ kind: 'units', unit, unit2, scale })) as UnitsAnswer;
    if (this.units.size >= UNITS_KEPT) this.units.clear();
    this.units.set(key, answer);
    return answer;
  };

  /**
   * A batch (issue 45.5): read in a thread, each distinct test found here against the kept catalogue
   * (the event loop given back every FIND_SLICE tests), judged and written in a thread; the answer's
   * text, JSON or CSV, in the pairs' order.
   */
  async judgeBatch(
    tests: TestLookup,
    body: BatchBody,
    shared: { probability: number; direction: 'either' | 'one' },
    want: 'json' | 'csv',
    population?: PopulationAsked,
  ): Promise<string> {
    // The thread answers the distinct tests only: 10,000 pairs are never cloned back and forth.
    const asked = (await this.pool.run({ kind: 'read', body, shared })) as PairTest[];
    const found: FoundPairTest[] = [];
    for (const test of asked) {
      if (found.length > 0 && found.length % FIND_SLICE === 0) await yieldToLoop();
      found.push(await findOne(tests, test, population));
    }
    const answer = population
      ? {
          population: {
            selection: Object.fromEntries(
              Object.entries(population.population.selection).map(([k, v]) => [k, [...v]]),
            ),
            key: population.population.key,
            label: population.population.label,
            sentence: populationSentence(population.population),
          },
        }
      : {};
    return (await this.pool.run({ kind: 'judge', body, shared, found, want, ...answer })) as string;
  }
}

async function findOne(
  tests: TestLookup,
  q: Parameters<typeof findJudgeable>[1],
  population?: PopulationAsked,
): Promise<FoundPairTest> {
  try {
    return { ok: true, test: await findJudgeable(tests, q, population) };
  } catch (err) {
    if (err instanceof AppError) return { ok: false, status: err.statusCode, error: err.message };
    throw err;
  }
}
