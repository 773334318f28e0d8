import { BackgroundBatches } from './background-batches.js';
import { compressManyInBackground } from './compress-upgrade-pool.js';
import { compressKept } from './kept-compression.js';

/** What compaction reads and writes of a kept answer (lib/response-cache.ts's `Entry`). */
export interface Compactable {
  body: string | Buffer | null;
  encoded: { gzip?: Buffer };
  dropped?: boolean;
  compacting?: true;
}

/** Records sent to the background thread in one trip at most. */
const BATCH = 256;
/**
 * Records waiting beyond this are compacted on the loop, as before decision 106: when the thread
 * falls behind, the records pool's memory stays what it was (~1.5 KB a record, not ~5).
 */
const MAX_WAITING = 4096;

/** The entry keeps only its gzip copy from now on (plainBody unzips it when the text is needed). */
function compactNow(entry: Compactable): void {
  entry.encoded.gzip ??= compressKept(entry.body!, 'gzip');
  entry.body = null;
}

/**
 * The records pool keeps a record of 1 KB or more as its gzip copy only (decision 033: twenty
 * thousand records in ~1.5 KB each instead of ~5). That copy was made on the event loop as the
 * record was kept, ~25 % of the loop's busy time in a first pass over 20,200 records at 100×
 * (decision 106). Now the records kept in a turn go to the background compression thread together;
 * until their copy is back they are `compacting`, and sent as built (identity), never compressed on
 * the loop (cached-json.ts).
 */
export class RecordCompaction {
  private readonly batches = new BackgroundBatches<Compactable>(BATCH, (batch) => this.compact(batch));

  add(entry: Compactable): void {
    if (entry.body === null) return;
    if (entry.encoded.gzip || this.batches.size >= MAX_WAITING) {
      compactNow(entry);
      return;
    }
    entry.compacting = true;
    this.batches.push(entry);
  }

  /** Resolves when every record kept so far has its gzip copy (tests, benches). */
  idle(): Promise<void> {
    return this.batches.idle();
  }

  private async compact(batch: Compactable[]): Promise<void> {
    const live = batch.filter((entry) => !entry.dropped && entry.body !== null);
    try {
      if (live.length > 0) {
        const copies = await compressManyInBackground(
          live.map((entry) => entry.body!),
          'gzip',
        );
        live.forEach((entry, i) => {
          entry.encoded.gzip ??= copies[i]!;
          entry.body = null;
        });
      }
    } catch {
      // The thread refused (busy, shutting down): these stay whole, correct answers that take more
      // memory; each is compressed where it is sent, as any answer without a copy.
    } finally {
      for (const entry of batch) delete entry.compacting;
    }
  }
}
