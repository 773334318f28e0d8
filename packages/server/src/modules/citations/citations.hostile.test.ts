import { performance } from 'node:perf_hooks';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSignedInTestApp, type SignedIn } from '../../test/sign-in.js';
import type { TestContext } from '../../test/test-app.js';

/** Issue 25: citation files that are malformed, or far larger than an import takes. */
let ctx: TestContext;
let s: SignedIn;
beforeAll(async () => {
  ({ ctx, s } = await createSignedInTestApp());
});
afterAll(async () => ctx.close());

const preview = (text: string, format?: string) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/v1/references/import/preview',
    headers: s.headers,
    payload: format ? { text, format } : { text },
  });

/** Words of citation-js's parser that once reached the curator (grammar path, token names, caret). */
const INTERNALS = /->|Main|rbrace|lbrace|label"|identifier|dataEntryType|got EOF|\^|\bcol\b/;
/** The message without the quoted line of the file (the curator's own text may hold anything). */
const ownWords = (message: string) => message.replace(/ \(".*"\):/s, ':');

describe('a malformed BibTeX file', () => {
  it.each([
    ['@article{', /near line 1, column 10 \("@article\{"\): an entry key .* was expected, but the file ends/],
    ['@article{x, title={unclosed', /near line 1, column 28 .*the file ends first \(an unclosed/],
    ['@{}', /near line 1, column 2 \("@\{\}"\): unexpected characters/],
    [
      '@article{x,\n title = {A}\n author = {B}}',
      /near line 3, column 2 \("author = \{B\}\}"\): a "\}" or a comma between fields was expected, but a word came first/,
    ],
  ])('%j: a 400 saying where, in plain words', async (text, message) => {
    const res = await preview(text, 'bibtex');
    expect(res.statusCode).toBe(400);
    const body = res.json<{ message: string }>();
    expect(body.message).toMatch(/^The BibTeX file could not be read/);
    expect(body.message).toMatch(message);
    expect(ownWords(body.message)).not.toMatch(INTERNALS);
  });

  it('whatever the bytes after an "@", never the parser’s own words', async () => {
    const piece = fc.constantFrom(
      '@',
      '{',
      '}',
      '(',
      ')',
      ',',
      '=',
      '"',
      '#',
      '\\',
      ' ',
      '\n',
      'a',
      '1',
      '%',
    );
    const text = fc.oneof(
      fc.array(piece, { minLength: 1, maxLength: 40 }).map((p) => `@${p.join('')}`),
      fc.string({ maxLength: 40 }).map((t) => `@article{${t}`),
      fc.uint8Array({ maxLength: 40 }).map((b) => `@article{x, title={${Buffer.from(b).toString('latin1')}`),
    );
    await fc.assert(
      fc.asyncProperty(text, async (t) => {
        const res = await preview(t, 'bibtex');
        expect(res.statusCode).toBeLessThan(500);
        if (res.statusCode >= 400)
          expect(ownWords(res.json<{ message: string }>().message)).not.toMatch(INTERNALS);
      }),
      { numRuns: 60 },
    );
  });
});

/** `count` RIS entries, each distinct (about 30 bytes each, as in the 609 KB file). */
const ris = (count: number) =>
  Array.from({ length: count }, (_, i) => `TY  - JOUR\nTI  - Study ${i}\nER  - \n`).join('');

/**
 * Runs `work` while asking /healthz every 20 ms: the slowest answer, counted from when it was due
 * (a blocked event loop delays the timer as much as the answer), and the work's result.
 */
async function whileHealthz<R>(work: Promise<R>): Promise<{ slowest: number; result: R }> {
  let done = false;
  let slowest = 0;
  const probe = (async () => {
    while (!done) {
      const due = performance.now() + 20;
      await new Promise((r) => setTimeout(r, 20));
      const res = await ctx.app.inject({ url: '/healthz' });
      expect(res.statusCode).toBe(200);
      slowest = Math.max(slowest, performance.now() - due);
    }
  })();
  const result = await work.finally(() => (done = true));
  await probe;
  return { slowest, result };
}

describe('a citation file with more entries than an import takes', () => {
  it('20,000 RIS entries: refused at once with a 400 naming the cap', async () => {
    const text = ris(20_000);
    expect(text.length).toBeGreaterThan(600_000);
    const t0 = performance.now();
    const res = await preview(text);
    const ms = performance.now() - t0;
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toBe(
      'The file holds 20,000 references: at most 2,000 are read at once (as many as one import creates). Split it into smaller files.',
    );
    expect(ms).toBeLessThan(500);
  });

  it.each([
    [
      'BibTeX',
      (n: number) => Array.from({ length: n }, (_, i) => `@article{k${i}, title={T${i}}}\n`).join(''),
    ],
    [
      'nbib',
      (n: number) => Array.from({ length: n }, (_, i) => `PMID- ${1000 + i}\nTI  - T${i}\n\n`).join(''),
    ],
  ])('%s past the cap: refused the same way', async (_, make) => {
    const res = await preview(make(2001));
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toMatch(
      /^The file holds 2,001 references: at most 2,000/,
    );
  });

  it('2,000 entries (the cap) are read off the event loop: /healthz answers within 200 ms meanwhile', async () => {
    // As after the first file: the parsing thread started, the response's code paths compiled.
    expect((await preview(ris(2000))).statusCode).toBe(200);
    const { slowest, result } = await whileHealthz(preview(ris(2000)));
    expect(result.statusCode).toBe(200);
    expect(result.json<{ entries: unknown[] }>().entries).toHaveLength(2000);
    expect(slowest).toBeLessThan(200);
  });
});
