import { expect } from 'vitest';

/**
 * Well-formedness of what renderAtom writes (elements, attributes, text; no comments or CDATA):
 * every tag closed in order, every `&` an entity, no `<` in text.
 */
export function expectWellFormed(xml: string): void {
  expect(xml.startsWith('<?xml version="1.0" encoding="utf-8"?>\n')).toBe(true);
  const body = xml.slice(xml.indexOf('\n') + 1);
  expect(body).not.toMatch(/&(?!(amp|lt|gt|quot|apos);)/);
  const stack: string[] = [];
  const tag = /<(\/?)([A-Za-z][\w:-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>/g;
  let at = 0;
  for (let m = tag.exec(body); m; m = tag.exec(body)) {
    expect(body.slice(at, m.index)).not.toMatch(/[<>]/);
    at = m.index + m[0].length;
    const [, close, name, , selfClosing] = m;
    if (close) expect(stack.pop()).toBe(name);
    else if (!selfClosing) stack.push(name!);
  }
  expect(body.slice(at).trim()).toBe('');
  expect(stack).toEqual([]);
}
