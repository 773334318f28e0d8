import zlib from 'node:zlib';
import { BackgroundBatches } from './background-batches.js';
import { chainInBackground } from './compress-upgrade-pool.js';
import { gzipOfPieces, storedPiece } from './stitched-gzip.js';

/** An item's piece of raw deflate for following another item in a page (decision 107). */
export interface PieceAfter {
  /** The digest of the item it follows: the piece holds only where that item comes right before it. */
  after: Buffer;
  /** `,` and the item's JSON, deflated with the item before as the dictionary. */
  piece: Buffer;
}

/** What chaining reads and writes of an item (lib/contract-json.ts's `JsonFragment`). */
export interface Chainable {
  json: Buffer;
  digest: Buffer;
  chain: PieceAfter | null;
}

const COMMA = Buffer.from(',');
/** Items sent to the background thread in one trip at most (~1.5 MB of JSON for datasets). */
const BATCH = 512;
/**
 * Beyond this many waiting, items are not chained: their pages get a whole quick copy, as before.
 * Enough for every item of two kinds of 25,000 rows (the fill at full pace runs ahead of the thread):
 * what waits is references to items kept anyway.
 */
const MAX_WAITING = 65_536;

/** Whether `item` has its piece for following `previous`. */
export function followsIn(previous: Chainable, item: Chainable): boolean {
  const chain = item.chain;
  return chain !== null && (chain.after === previous.digest || chain.after.equals(previous.digest));
}

/**
 * Makes, in the background compression thread, each page item's piece for following the item before
 * it in id order (decision 107): the background fill of the kept public rows adds the items it made,
 * so a first-time page is stitched from pieces (`stitchedGzip`) instead of compressed whole on the
 * event loop (its ~0.3–0.8 ms a page of 20 was the largest part of a first answer at 100×, issue 44.3).
 */
export class FragmentChains {
  private readonly batches = new BackgroundBatches<[Chainable, Chainable]>(BATCH, (batch) =>
    this.chain(batch),
  );

  /** Asks for `item`'s piece after `previous`, unless it has it or too many wait. */
  add(previous: Chainable, item: Chainable): void {
    if (followsIn(previous, item) || this.batches.size >= MAX_WAITING) return;
    this.batches.push([previous, item]);
  }

  /** Resolves when every item added so far has its piece (tests, benches). */
  idle(): Promise<void> {
    return this.batches.idle();
  }

  private async chain(batch: [Chainable, Chainable][]): Promise<void> {
    // One run of texts: a pair's previous item is sent unless it is the item of the pair before.
    const texts: Buffer[] = [];
    const linked: boolean[] = [];
    for (const [previous, item] of batch) {
      if (texts.at(-1) !== previous.json) {
        texts.push(previous.json);
        linked.push(false);
      }
      texts.push(item.json);
      linked.push(true);
    }
    try {
      const made = await chainInBackground(
        Buffer.concat(texts),
        texts.map((text) => text.length),
        linked,
      );
      let at = 0;
      batch.forEach(([previous, item], i) => {
        const length = made.lengths[i]!;
        item.chain = { after: previous.digest, piece: made.bytes.subarray(at, at + length) };
        at += length;
      });
    } catch {
      // The thread refused (busy, shutting down): these items' pages get a whole quick copy.
    }
  }
}

export const fragmentChains = new FragmentChains();

/** Pieces a page may lack and still be stitched: each goes as it is (stored), ~2.5 times larger. */
const missingAllowed = (items: number) => Math.max(2, Math.floor(items / 10));

/**
 * A page's gzip copy stitched from its items' pieces (decision 107), with no compression on the
 * event loop and the page itself never joined: `head` (the envelope up to the first item) and the
 * first item stored as they are (zlib's state for a few KB cost ~0.3 ms of the loop a page under
 * load, for ~2.4 KB less), each following item's piece, `tail` stored; the CRC-32 and length summed
 * over the parts. Null when there are fewer than two items, or more than a tenth lack their piece
 * (rows read before the fill reached them): the page is then joined and its quick copy made whole,
 * as before; the few that lack it go stored.
 */
export function stitchedGzip(
  head: Buffer,
  items: readonly Chainable[],
  tail: Buffer,
): { gzip: Buffer; length: number } | null {
  if (items.length < 2) return null;
  let missing = 0;
  for (let k = 1; k < items.length; k++) if (!followsIn(items[k - 1]!, items[k]!)) missing++;
  if (missing > missingAllowed(items.length)) return null;
  const pieces: Uint8Array[] = [...storedPiece(head), ...storedPiece(items[0]!.json)];
  const plain = new PlainSum(head).add(items[0]!.json);
  for (let k = 1; k < items.length; k++) {
    const item = items[k]!;
    if (followsIn(items[k - 1]!, item)) pieces.push(item.chain!.piece);
    else pieces.push(...storedPiece(COMMA), ...storedPiece(item.json));
    plain.add(COMMA).add(item.json);
  }
  pieces.push(...storedPiece(tail));
  plain.add(tail);
  return { gzip: gzipOfPieces(pieces, plain.crc, plain.length), length: plain.length };
}

/** The CRC-32 and length of bytes given in parts, as if joined. */
class PlainSum {
  crc = 0;
  length = 0;
  constructor(first: Uint8Array) {
    this.add(first);
  }
  add(part: Uint8Array): this {
    this.crc = zlib.crc32(part, this.crc);
    this.length += part.length;
    return this;
  }
}
