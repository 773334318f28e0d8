import { describe, expect, it } from 'vitest';
import { emptyPicked, pickHeaders, replayable } from './fast-reads.js';

// The fast path reads the request headers it needs from Node's raw list (decision 111).
describe('pickHeaders', () => {
  it('reads the headers that vary an answer and those that decide a replay, in any case', () => {
    const picked = emptyPicked();
    const raw = ['Host', 'x', 'Accept', 'text/html', 'ACCEPT-ENCODING', 'br', 'If-None-Match', 'W/"a"'];
    expect(pickHeaders([...raw, 'origin', 'https://a.example', 'X-Request-Id', 'r1'], picked)).toBe(true);
    expect(picked.varying).toEqual(['text/html', 'br', 'https://a.example', undefined]);
    expect(picked.ifNoneMatch).toBe('W/"a"');
    expect(picked.requestId).toBe('r1');
    expect(picked.cookie).toBeUndefined();
  });

  it('clears what the previous request left', () => {
    const picked = emptyPicked();
    pickHeaders(['accept', 'a', 'cookie', 'c=1', 'content-length', '5'], picked);
    expect(pickHeaders(['host', 'x'], picked)).toBe(true);
    expect(picked).toEqual(emptyPicked());
  });

  it('refuses a header it reads sent twice, whatever the case', () => {
    expect(pickHeaders(['accept', 'a', 'Accept', 'b'], emptyPicked())).toBe(false);
    expect(pickHeaders(['Cookie', 'a=1', 'cookie', 'b=2'], emptyPicked())).toBe(false);
    // Headers it does not read may repeat.
    expect(pickHeaders(['x-forwarded-for', '1', 'x-forwarded-for', '2'], emptyPicked())).toBe(true);
  });
});

describe('replayable', () => {
  const with_ = (raw: string[]) => {
    const picked = emptyPicked();
    pickHeaders(raw, picked);
    return picked;
  };

  it('is a GET without a body, a session cookie or an overlong URL', () => {
    expect(replayable('/api/meta', with_([]), 'sid=')).toBe(true);
    expect(replayable('/api/meta', with_(['Content-Length', '0', 'cookie', 'theme=dark']), 'sid=')).toBe(
      true,
    );
    expect(replayable('/api/meta', with_(['Content-Length', '3']), 'sid=')).toBe(false);
    expect(replayable('/api/meta', with_(['Transfer-Encoding', 'chunked']), 'sid=')).toBe(false);
    expect(replayable('/api/meta', with_(['Cookie', 'sid=abc']), 'sid=')).toBe(false);
    expect(replayable(`/api/meta?q=${'x'.repeat(1100)}`, with_([]), 'sid=')).toBe(false);
    expect(replayable(undefined, with_([]), 'sid=')).toBe(false);
  });
});
