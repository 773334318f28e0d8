import { createHash } from 'node:crypto';
import { z } from 'zod';
import { stitchedGzip, type PieceAfter } from './fragment-chains.js';

/**
 * One item of a kept answer as JSON, made once (decision 065): its text as the route's serialiser
 * would write it inside the answer, and a digest of that text for the answer's ETag.
 */
export interface JsonFragment {
  json: Buffer;
  digest: Buffer;
  /** Its piece for following the item before it in a page, once made (lib/fragment-chains.ts). */
  chain: PieceAfter | null;
}

/**
 * `value` checked against the contract's `schema` and written as the route serialiser writes it
 * (fastify-type-provider-zod: `safeEncode`, then `JSON.stringify`): an item of an answer gives the
 * same text here as inside the whole answer. A value outside the contract throws, as the serialiser
 * does (a 500, never a malformed answer).
 */
export function contractFragment(schema: z.ZodType, value: unknown): JsonFragment {
  const json = Buffer.from(contractJson(schema, value));
  return { json, digest: createHash('sha1').update(json).digest(), chain: null };
}

/**
 * `value` checked against the contract's `schema` and written as the route serialiser writes it:
 * the text of a whole answer, made off the event loop (a menu thread, decision 068) and sent as is.
 */
export function contractJson(schema: z.ZodType, value: unknown): string {
  const result = z.safeEncode(schema, value);
  if (!result.success) throw new Error(`An answer's item is outside the contract: ${result.error.message}`);
  return JSON.stringify(result.data);
}

/**
 * A fragment per object, made once and forgotten with the object: kept rows are never changed (a
 * write brings a new row object), so an object's fragment stays true while it lives.
 */
export function fragmentMemo<K extends object>(make: (key: K) => JsonFragment): (key: K) => JsonFragment {
  const made = new WeakMap<K, JsonFragment>();
  return (key) => {
    let fragment = made.get(key);
    if (!fragment) {
      fragment = make(key);
      made.set(key, fragment);
    }
    return fragment;
  };
}

const COMMA = Buffer.from(',');

/** Items of a long answer checked and written between two lets-go of the event loop. */
const ITEMS_PER_STEP = 100;

/**
 * `whole` as the route's serialiser writes it, in pieces: its envelope with `field` emptied written
 * by the serialiser (`serialise`), then the items of `field` each checked against `itemSchema` and
 * written as the serialiser writes them, ITEMS_PER_STEP at a time with the event loop let go between.
 * The pieces joined are the bytes of `serialise(whole)`; checking a 7,100-entry answer at once held
 * the loop for over 100 ms at 100× the demo (issue 44.1).
 */
export async function* answerInSteps(
  serialise: (value: unknown) => string,
  whole: Record<string, unknown>,
  field: string,
  itemSchema: z.ZodType,
  /** Each item as the answer has it, when `whole[field]` holds what it is presented from. */
  present: (item: unknown) => unknown = (item) => item,
): AsyncGenerator<string> {
  const items = whole[field];
  if (!Array.isArray(items)) throw new Error(`The answer's ${field} is not a list`);
  const empty = serialise({ ...whole, [field]: [] });
  const hole = `${JSON.stringify(field)}:[]`;
  const at = empty.indexOf(hole);
  if (at < 0 || empty.indexOf(hole, at + 1) >= 0)
    throw new Error(`The envelope must hold its empty ${field} once`);
  const open = at + hole.length - 1;
  yield empty.slice(0, open);
  for (let i = 0; i < items.length; i += ITEMS_PER_STEP) {
    if (i > 0) await new Promise((resolve) => setImmediate(resolve));
    const text = items
      .slice(i, i + ITEMS_PER_STEP)
      .map((item) => contractJson(itemSchema, present(item)))
      .join(',');
    yield i === 0 ? text : `,${text}`;
  }
  yield empty.slice(open);
}

/** The pieces of an answer made in steps, joined: a kept answer's text. */
export async function joinedText(pieces: AsyncIterable<string>): Promise<string> {
  const parts: string[] = [];
  for await (const piece of pieces) parts.push(piece);
  return parts.join('');
}

/** Answers smaller than this are joined: they are compressed whole where they are sent. */
const STITCH_FROM = 8 * 1024;

/**
 * An answer whose last field is an array of items made beforehand: `envelope` (with that array
 * empty) written by the route's serialiser (`serialise`, so it is checked against the contract as
 * every answer is), the items' fragments put in the empty array's place. The bytes are those the
 * serialiser writes for the whole answer; the ETag is a hash of the envelope and the items' digests,
 * so it costs microseconds, and it is the same in every process for the same answer.
 * With `stitch`, an answer of 8 KB or more whose items have their pieces comes as its gzip copy
 * stitched from them (decision 107), `body` null: joining a page of 100 (~0.35 MB of fresh memory)
 * cost the loop more under load than anything else in a first ask. Otherwise `body` is the bytes.
 */
export function answerWithItems(
  serialise: (envelope: unknown) => string,
  envelope: object,
  items: readonly JsonFragment[],
  stitch = false,
): { body: Buffer; etag: string; stitched: null } | { body: null; etag: string; stitched: Stitched } {
  const empty = serialise(envelope);
  if (!empty.endsWith('[]}')) throw new Error('The envelope must end with its empty array of items');
  const head = Buffer.from(empty.slice(0, -2));
  const tail = Buffer.from(']}');
  const hash = createHash('sha1').update(empty).update(String(items.length));
  let length = head.length + tail.length + Math.max(0, items.length - 1);
  for (const item of items) {
    hash.update(item.digest);
    length += item.json.length;
  }
  const etag = `W/"${hash.digest('base64url').slice(0, 27)}"`;
  const stitched = stitch && length >= STITCH_FROM ? stitchedGzip(head, items, tail) : null;
  if (stitched) return { body: null, etag, stitched };
  const parts: Buffer[] = [head];
  items.forEach((item, i) => {
    if (i > 0) parts.push(COMMA);
    parts.push(item.json);
  });
  parts.push(tail);
  return { body: Buffer.concat(parts), etag, stitched: null };
}

/** An answer kept as its stitched gzip copy only, and its length unpacked. */
export interface Stitched {
  gzip: Buffer;
  length: number;
}
