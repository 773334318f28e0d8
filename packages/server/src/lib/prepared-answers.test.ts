import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { contentEtag } from './content-etag.js';
import { isPrepared, PreparedAnswers } from './prepared-answers.js';

const answer = (i: number) =>
  Buffer.from(
    JSON.stringify({ data: { id: i, items: Array.from({ length: 60 }, (_, k) => `item ${i}.${k}`) } }),
  );

// Decision 113: whole answers made ahead in the background thread, by what they are made from.
describe('answers made ahead', () => {
  it('are each one’s gzip copy, in memory of its own, with its length and its body’s ETag', async () => {
    const prepared = new PreparedAnswers<{ id: number }>();
    const rows = Array.from({ length: 300 }, (_, id) => ({ id }));
    let built = 0;
    for (const row of rows)
      prepared.add(row, () => {
        built++;
        return answer(row.id);
      });
    // Nothing made in the caller's turn.
    expect(built).toBe(0);
    expect(prepared.get(rows[0]!)).toBeUndefined();
    await prepared.idle();
    for (const row of rows) {
      const made = prepared.get(row)!;
      const bytes = answer(row.id);
      expect(isPrepared(made)).toBe(true);
      expect(zlib.gunzipSync(made.gzip).equals(bytes)).toBe(true);
      expect(made.length).toBe(bytes.length);
      expect(made.etag).toBe(contentEtag(bytes));
      expect(made.gzip.buffer.byteLength).toBe(made.gzip.byteLength);
    }
    // Asked again, an answer already made is not made twice.
    for (const row of rows) prepared.add(row, () => answer(row.id));
    await prepared.idle();
    expect(built).toBe(300);
  });

  it('tells an answer made ahead from bytes', () => {
    expect(isPrepared(Buffer.from('{}'))).toBe(false);
    expect(isPrepared('{}')).toBe(false);
    expect(isPrepared({ gzip: zlib.gzipSync('{}'), length: 2, etag: contentEtag('{}') })).toBe(true);
  });
});
