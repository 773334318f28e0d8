/**
 * How deep JSON may nest. Our deepest real document (a whole-database file) nests five levels; 64
 * leaves room for any honest client. A deeper value cannot be handed to a worker thread
 * (structured clone recurses), validated by zod or logged without risking the stack (issue 25).
 */
export const MAX_JSON_DEPTH = 64;

/**
 * The deepest nesting of arrays and objects in JSON text, stopping as soon as it passes `limit`
 * (a linear scan that skips strings, so brackets inside them do not count).
 */
export function jsonDepthExceeds(text: string, limit = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}
