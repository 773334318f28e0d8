import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { RecordCompaction } from './record-compaction.js';
import type { Entry } from './response-cache.js';

const record = (i: number): Entry => {
  const body = JSON.stringify({
    data: { id: i, items: Array.from({ length: 60 }, (_, k) => `item ${i}.${k}`) },
  });
  return {
    scopes: ['datasets'],
    stamp: 0,
    body,
    length: body.length,
    etag: `W/"${i}"`,
    headers: {},
    encoded: {},
  };
};

// Decision 106: the records pool's gzip copies are made in the background thread, batched.
describe('the records pool’s gzip copies', () => {
  it('are made off the loop for every record kept in a turn, each unzipping to its record', async () => {
    const compaction = new RecordCompaction();
    const entries = Array.from({ length: 300 }, (_, i) => record(i));
    const texts = entries.map((e) => e.body as string);
    for (const e of entries) compaction.add(e);
    // Nothing compressed in the caller's turn.
    expect(entries.every((e) => e.compacting && e.body !== null && !e.encoded.gzip)).toBe(true);
    await compaction.idle();
    entries.forEach((e, i) => {
      expect(e.compacting).toBeUndefined();
      expect(e.body).toBeNull();
      expect(zlib.gunzipSync(e.encoded.gzip!).toString()).toBe(texts[i]);
      // Its own bytes, not the thread's 16 KB output chunk carried across with it.
      expect(e.encoded.gzip!.buffer.byteLength).toBe(e.encoded.gzip!.byteLength);
    });
  });

  it('leave a record the cache let go meanwhile as it was', async () => {
    const compaction = new RecordCompaction();
    const [kept, dropped] = [record(1), record(2)];
    compaction.add(kept);
    compaction.add(dropped);
    dropped.dropped = true;
    await compaction.idle();
    expect(kept.body).toBeNull();
    expect(dropped.body).not.toBeNull();
    expect(dropped.encoded.gzip).toBeUndefined();
    expect(dropped.compacting).toBeUndefined();
  });

  it('are made at once, on the loop, past 4096 records waiting, so memory stays bounded', async () => {
    const compaction = new RecordCompaction();
    const waiting = Array.from({ length: 4096 }, (_, i) => record(i));
    for (const e of waiting) compaction.add(e);
    const extra = record(5000);
    const text = extra.body as string;
    compaction.add(extra);
    expect(extra.compacting).toBeUndefined();
    expect(extra.body).toBeNull();
    expect(zlib.gunzipSync(extra.encoded.gzip!).toString()).toBe(text);
    await compaction.idle();
    expect(waiting.every((e) => e.body === null)).toBe(true);
  });
});
