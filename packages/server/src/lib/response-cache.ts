import { createHash } from 'node:crypto';

interface Entry {
  generation: number;
  body: string;
  etag: string;
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

  set(key: string, body: string): Entry {
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    const etag = `W/"${createHash('sha1').update(body).digest('base64url').slice(0, 27)}"`;
    const entry = { generation: this.generation, body, etag };
    this.entries.set(key, entry);
    return entry;
  }
}
