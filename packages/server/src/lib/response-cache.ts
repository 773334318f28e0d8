import { createHash } from 'node:crypto';
import zlib from 'node:zlib';

export type ContentEncoding = 'br' | 'gzip';

export interface Entry {
  generation: number;
  body: string | Buffer;
  etag: string;
  /** Headers that belong to the answer (e.g. a download's file name). */
  headers: Record<string, string>;
  /** Compressed copies, made once on first demand: a cached answer is never compressed twice. */
  encoded: Partial<Record<ContentEncoding, Buffer>>;
}

/** The body of an entry in the encoding the client prefers, compressed once and kept. */
export function encodedBody(entry: Entry, encoding: ContentEncoding): Buffer {
  const cached = entry.encoded[encoding];
  if (cached) return cached;
  const made =
    encoding === 'br'
      ? zlib.brotliCompressSync(entry.body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 6 } })
      : zlib.gzipSync(entry.body, { level: 6 });
  entry.encoded[encoding] = made;
  return made;
}

/** br when the client takes it, else gzip, else none (q=0 refusals honoured). */
export function preferredEncoding(acceptEncoding: string | undefined): ContentEncoding | null {
  if (!acceptEncoding) return null;
  const accepted = new Set(
    acceptEncoding
      .split(',')
      .map((part) => part.trim().split(';'))
      .filter(([, q]) => !q || Number(q.trim().replace(/^q=/, '')) > 0)
      .map(([name]) => name!.trim().toLowerCase()),
  );
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return null;
}

/**
 * Serialised answers of public reads, kept until the data changes. Writes in this process bump the
 * generation at once; other processes (several servers on one PostgreSQL) see the change when their
 * `refreshGeneration` reads the shared counter, at most once per `maxStalenessMs`.
 */
export class ResponseCache {
  private generation = 0;
  private entries = new Map<string, Entry>();
  private lastCheck = 0;

  constructor(private readonly maxEntries = 2000) {}

  get currentGeneration(): number {
    return this.generation;
  }

  invalidate(nextGeneration?: number): void {
    this.generation = nextGeneration ?? this.generation + 1;
    this.entries.clear();
  }

  /** Adopt a generation read from the database when it differs from ours. */
  observe(sharedGeneration: number): void {
    if (sharedGeneration !== this.generation) this.invalidate(sharedGeneration);
  }

  shouldCheck(now: number, maxStalenessMs: number): boolean {
    if (now - this.lastCheck < maxStalenessMs) return false;
    this.lastCheck = now;
    return true;
  }

  get(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    return entry && entry.generation === this.generation ? entry : undefined;
  }

  set(key: string, body: string | Buffer, headers: Record<string, string> = {}): Entry {
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    const etag = `W/"${createHash('sha1').update(body).digest('base64url').slice(0, 27)}"`;
    const entry: Entry = { generation: this.generation, body, etag, headers, encoded: {} };
    this.entries.set(key, entry);
    return entry;
  }
}
