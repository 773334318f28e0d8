import { BackgroundBatches } from './background-batches.js';
import { prepareInBackground, type PreparedAnswer } from './compress-upgrade-pool.js';

export type { PreparedAnswer } from './compress-upgrade-pool.js';

/** Answers sent to the background thread in one trip at most (~1 MB of public records). */
const BATCH = 256;
/**
 * Beyond this many waiting, an answer is not prepared: its first ask builds it, as before. Enough
 * for every kept row of the default `READ_CACHE_ROWS` (the fill at full pace runs ahead of the
 * thread); what waits is references to rows kept anyway.
 */
const MAX_WAITING = 32_768;

/**
 * Whole answers made ahead, off the event loop, by what they are made from (a kept public row):
 * each one's gzip copy with the kept settings and its ETag, made in the background compression thread
 * (decision 113). A first ask of a public record then keeps that copy and sends it, with nothing
 * joined, hashed or compressed for it on the loop; an answer not prepared (yet) is built as before.
 * Held weakly: a row the kept rows let go takes its answer with it.
 */
export class PreparedAnswers<K extends object> {
  private readonly made = new WeakMap<K, PreparedAnswer>();
  private readonly batches = new BackgroundBatches<[K, () => Buffer]>(BATCH, (batch) => this.prepare(batch));

  /** `first`: what each batch waits for before it goes (the pages' pieces and a quiet moment, decisions 113–114). */
  constructor(private readonly first: () => Promise<void> = async () => {}) {}

  /** Asks for `from`'s answer (`build` makes its bytes when its batch goes), unless it has one or too many wait. */
  add(from: K, build: () => Buffer): void {
    if (this.made.has(from) || this.batches.size >= MAX_WAITING) return;
    this.batches.push([from, build]);
  }

  /** `from`'s answer made ahead, if it is there. */
  get(from: K): PreparedAnswer | undefined {
    return this.made.get(from);
  }

  /** Resolves when every answer asked for so far is made (tests, benches). */
  idle(): Promise<void> {
    return this.batches.idle();
  }

  private async prepare(batch: [K, () => Buffer][]): Promise<void> {
    await this.first();
    try {
      const answers = await prepareInBackground(batch.map(([, build]) => build()));
      batch.forEach(([from], i) => this.made.set(from, answers[i]!));
    } catch {
      // The thread refused (busy, shutting down): these answers are built on their first ask.
    }
  }
}

/** Whether what a route made is an answer made ahead rather than its bytes. */
export function isPrepared(made: string | Buffer | PreparedAnswer): made is PreparedAnswer {
  return typeof made === 'object' && !Buffer.isBuffer(made);
}
