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
