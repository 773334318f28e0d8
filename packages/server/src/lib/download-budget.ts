import { performance } from 'node:perf_hooks';
import { Readable, Transform } from 'node:stream';

/**
 * After a quiet moment this many seconds' worth goes at once: at the default 5 MB/s, a file of up to
 * 10 MB (an export, most articles) arrives unpaced when nobody else is downloading.
 */
export const DOWNLOAD_BURST_SECONDS = 2;

/**
 * Bodies are sent in slices of this size, so concurrent downloads take turns slice by slice. Measured
 * against 256 KiB (no better) and 1 MiB (reads lost 0.77× instead of 0.85×, decision 035).
 */
export const DOWNLOAD_SLICE_BYTES = 64 * 1024;

/**
 * A kept whole-catalogue answer no larger than one slice (`/api/meta_calculations`, 3 KB in br at
 * the demo size; the catalogue itself in br) is sent like any other kept read, outside the budget:
 * sending it costs the event loop no more than a measurand's page, which is not budgeted either,
 * and pacing it held a cheap read to the download rate (decision 051). Larger copies are downloads.
 */
export const isDownloadSize = (bytes: number): boolean => bytes > DOWNLOAD_SLICE_BYTES;

/**
 * One bandwidth budget shared by every download (article PDFs, spreadsheet exports): together they
 * are sent at no more than `bytesPerSecond`, after a burst of `burstSeconds`' worth when the budget
 * has been idle (decision 035). The kernel's copying of bytes to sockets runs on the event loop's
 * core, so without a bound on the total, enough parallel downloads at loopback or LAN speed take that
 * core from every other request, however each one is paced (issue 17, point 8).
 *
 * Slices are given their turn in the order they arrive, and a download has one slice waiting at a
 * time, so concurrent downloads share the budget evenly; a slow client (backpressure) reserves
 * nothing until it reads. A budget of 0 or less sends everything at once.
 */
export class DownloadBudget {
  /** The moment (performance.now() ms) at which every byte reserved so far has been sent at the rate. */
  private clock = 0;

  constructor(
    private readonly bytesPerSecond: number,
    private readonly burstSeconds = DOWNLOAD_BURST_SECONDS,
  ) {}

  get paced(): boolean {
    return this.bytesPerSecond > 0;
  }

  /** How many ms a slice reserved now would wait: the backlog of every download under way (reserves nothing). */
  get backlogMs(): number {
    return this.paced ? Math.max(0, this.clock - performance.now()) : 0;
  }

  /** Reserves `bytes` of the budget; returns how many ms to wait before sending them. */
  reserve(bytes: number): number {
    if (!this.paced) return 0;
    const now = performance.now();
    const burstMs = this.burstSeconds * 1000;
    // Unused budget older than the burst is gone: an idle minute does not buy a minute unpaced.
    this.clock = Math.max(this.clock, now - burstMs) + (bytes / this.bytesPerSecond) * 1000;
    return Math.max(0, this.clock - now);
  }

  /**
   * Reserves `bytes` when they fit one slice and may go at once (true); otherwise reserves nothing
   * (false) and the caller sends them through `body`. The fast read path asks (decision 041).
   */
  takeNow(bytes: number): boolean {
    if (!this.paced) return true;
    if (bytes > DOWNLOAD_SLICE_BYTES) return false;
    const now = performance.now();
    const clock = Math.max(this.clock, now - this.burstSeconds * 1000) + (bytes / this.bytesPerSecond) * 1000;
    if (clock > now) return false;
    this.clock = clock;
    return true;
  }

  /** `source`, each chunk sent when the shared budget allows it. */
  pace(source: Readable): Readable {
    if (!this.paced) return source;
    const pacer = new Transform({
      transform: (chunk: Buffer, _encoding, done) => {
        const wait = this.reserve(chunk.length);
        if (wait > 0) setTimeout(() => done(null, chunk), wait);
        else done(null, chunk);
      },
    });
    source.on('error', (err) => pacer.destroy(err));
    pacer.on('close', () => source.destroy());
    return source.pipe(pacer);
  }

  /**
   * A body held in memory (a cached export), ready to send: the bytes themselves when they fit in
   * one slice and the budget has room now, else a stream of slices paced like any download.
   */
  body(bytes: Buffer): Buffer | Readable {
    if (!this.paced) return bytes;
    if (bytes.length <= DOWNLOAD_SLICE_BYTES) {
      const wait = this.reserve(bytes.length);
      if (wait <= 0) return bytes;
      return Readable.from(
        (async function* () {
          await new Promise((r) => setTimeout(r, wait));
          yield bytes;
        })(),
      );
    }
    return this.pace(Readable.from(slices(bytes), { objectMode: false }));
  }
}

function* slices(bytes: Buffer): Generator<Buffer> {
  for (let at = 0; at < bytes.length; at += DOWNLOAD_SLICE_BYTES) {
    yield bytes.subarray(at, at + DOWNLOAD_SLICE_BYTES);
  }
}
