import zlib from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { contractFragment } from './contract-json.js';
import { FragmentChains, followsIn, stitchedGzip } from './fragment-chains.js';
import { z } from 'zod';

// Decision 107: page items get, in the background thread, their piece for following the item before
// them; a first-time page is stitched from those pieces, and is the page's bytes whatever is missing.

const Item = z.object({ id: z.number(), name: z.string(), cvi: z.number(), reference: z.string() });
const REFERENCE =
  'Biological variation estimates obtained from 91 healthy study participants for 9 enzymes in serum';
const items = (n: number, from = 0) =>
  Array.from({ length: n }, (_, i) =>
    contractFragment(Item, {
      id: from + i,
      name: `Measurand ${(from + i) % 9}`,
      cvi: (from + i) * 0.7,
      reference: REFERENCE,
    }),
  );
const head = Buffer.from('{"meta":{"total":9999},"data":[');
const tail = Buffer.from(']}');
const joined = (list: { json: Buffer }[]) =>
  Buffer.concat([head, Buffer.from(list.map((i) => String(i.json)).join(',')), tail]);

async function chained(list: ReturnType<typeof items>) {
  const chains = new FragmentChains();
  for (let k = 1; k < list.length; k++) chains.add(list[k - 1]!, list[k]!);
  await chains.idle();
  return list;
}

afterEach(() => vi.restoreAllMocks());

describe('fragment chains', () => {
  it('give each item its piece after the one before, in the background', async () => {
    const list = await chained(items(600)); // more than one trip to the thread
    for (let k = 1; k < list.length; k++) expect(followsIn(list[k - 1]!, list[k]!)).toBe(true);
    expect(list[0]!.chain).toBeNull();
    // Only after that item: not after another.
    expect(followsIn(list[0]!, list[2]!)).toBe(false);
  });

  it('stitch a page that unpacks to its bytes, and carries its length unpacked', async () => {
    const list = await chained(items(100));
    const page = list.slice(10, 60);
    const stitched = stitchedGzip(head, page, tail)!;
    const plain = joined(page);
    expect(stitched.length).toBe(plain.length);
    expect(zlib.gunzipSync(stitched.gzip).equals(plain)).toBe(true);
    expect(stitched.gzip.length).toBeLessThan(plain.length / 3);
  });

  it('stitch a page with a few items lacking their piece (they go stored); not one lacking many', async () => {
    const list = await chained(items(40));
    // An item made again (a write): its piece and the next one's no longer hold.
    const changed = contractFragment(Item, { id: 20, name: 'Changed', cvi: 1, reference: REFERENCE });
    const page = [...list.slice(0, 20), changed, ...list.slice(21, 40)];
    expect(followsIn(page[19]!, page[20]!)).toBe(false);
    expect(followsIn(page[20]!, page[21]!)).toBe(false);
    const stitched = stitchedGzip(head, page, tail)!;
    expect(zlib.gunzipSync(stitched.gzip).equals(joined(page))).toBe(true);
    // Items that do not follow each other (a filter by measurand): the page is joined whole instead.
    const sparse = list.filter((_, i) => i % 3 === 0);
    expect(stitchedGzip(head, sparse, tail)).toBeNull();
    expect(stitchedGzip(head, list.slice(0, 1), tail)).toBeNull();
  });

  it('leave items without a piece when the thread refuses, and stop asking once too many wait', async () => {
    const pool = await import('./compress-upgrade-pool.js');
    const refused = vi.spyOn(pool, 'chainInBackground').mockRejectedValue(new Error('busy'));
    const list = items(10);
    const chains = new FragmentChains();
    for (let k = 1; k < list.length; k++) chains.add(list[k - 1]!, list[k]!);
    await chains.idle();
    expect(refused).toHaveBeenCalled();
    expect(list.every((i) => i.chain === null)).toBe(true);
    // The page is still answered right: joined, its copy made whole where it is sent.
    expect(stitchedGzip(head, list, tail)).toBeNull();
  });
});
