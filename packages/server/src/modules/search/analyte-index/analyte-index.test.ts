import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { analytes } from '../../../db/schema.js';
import { seedDatabase } from '../../../seed/seed.js';
import { createTestDatabase } from '../../../test/test-app.js';
import { listAllAnalytes } from '../../analytes/analytes.service.js';
import { AnalyteIndex } from './analyte-index.js';

// The sorted keys answer a search from its starts alone when there are enough of them (decision
// 042): the answer must be exactly the one of scoring every entry, in order, for every query.

type AnalyteRow = typeof analytes.$inferSelect;
let rows: AnalyteRow[];
let drop: () => Promise<void>;
beforeAll(async () => {
  const t = await createTestDatabase();
  drop = t.drop;
  await seedDatabase(t.database.db, { demo: true });
  const demo = await listAllAnalytes(t.database.db);
  // As the bench's 100× data: each measurand again under "(copy k)", here 30 times, and some
  // names shared exactly (ties broken by table order).
  rows = [...demo];
  for (let k = 2; k <= 30; k++)
    for (const a of demo)
      rows.push({
        ...a,
        id: a.id + 10_000 * k,
        displayName: k % 10 === 0 ? a.displayName : `${a.displayName} (copy ${k})`,
      });
});
afterAll(async () => drop());

/** Every prefix of every word of every name and other name, substrings, codes, typos, odd input. */
function queries(): string[] {
  const out = new Set<string>([
    'a',
    'c',
    'co',
    'copy',
    'copy 2',
    '(',
    '-',
    ' ',
    'é',
    'xyzzy',
    'creatinin',
    'glucsoe',
    'hba1',
    'rine',
    'ol',
  ]);
  for (const a of rows.slice(0, 200))
    for (const text of [a.displayName, a.fullName ?? '', ...a.alternateNames, a.loinc ?? ''])
      for (const w of text.split(/\s+/).filter(Boolean)) {
        for (let n = 1; n <= Math.min(w.length, 6); n++) out.add(w.slice(0, n));
        out.add(w.slice(1, 5));
        out.add(w);
      }
  return [...out];
}

/**
 * Typos (a swap, a letter dropped, a letter doubled, the last two swapped) and a substring of the
 * demo names: the answers that come from the joined texts and the distinct words.
 */
function typos(): string[] {
  const out = new Set<string>();
  rows.slice(0, 71).forEach((a, k) => {
    const name = a.displayName.toLowerCase();
    out.add(name.slice(2, 9));
    const ws = name.split(/\s+/).filter((x) => x.length >= 3);
    const w = ws[k % ws.length];
    if (!w) return;
    const kinds = [
      w[1]! + w[0]! + w.slice(2),
      w.slice(0, 2) + w.slice(3),
      w.slice(0, 3) + w[2]! + w.slice(3),
      `${w.slice(0, -2)}${w.at(-1)!}${w.at(-2)!}`,
    ];
    out.add(kinds[k % kinds.length]!);
  });
  return [...out];
}

describe('measurand index', () => {
  it('built in steps with the event loop let go between them, answers as one built at once (issue 44.1)', async () => {
    let turns = 0;
    const ticker = setInterval(() => turns++, 0);
    const stepped = await AnalyteIndex.build(rows);
    clearInterval(ticker);
    // ~1,800 rows in steps of 250: timers ran while it was made, not only after.
    expect(turns).toBeGreaterThan(0);
    const whole = new AnalyteIndex(rows);
    expect(stepped.size).toBe(whole.size);
    for (const q of [...queries().slice(0, 60), ...typos().slice(0, 20)])
      expect(stepped.search(q, 50), q).toEqual(whole.search(q, 50));
  }, 120_000);

  it('made whole before its first substring or typo query (prepare), answers as one made on demand (issue 44.1)', async () => {
    const prepared = new AnalyteIndex(rows);
    let others = 0;
    setImmediate(() => others++);
    const preparing = prepared.prepare();
    // Made in parts with the event loop let go between them, not at once.
    expect(others).toBe(0);
    await preparing;
    expect(others).toBe(1);
    // A measurand renamed after the parts were made is found by its new name's substrings and typos.
    prepared.update([{ ...rows[0]!, displayName: 'Zymogenic quartz enzyme' }]);
    const onDemand = new AnalyteIndex(rows);
    onDemand.update([{ ...rows[0]!, displayName: 'Zymogenic quartz enzyme' }]);
    for (const q of [...typos().slice(0, 40), 'ogenic quar', 'zymogenik'])
      expect(prepared.search(q, 50), q).toEqual(onDemand.search(q, 50));
    expect(prepared.search('ogenic quar', 5).map((a) => a.display_name)).toEqual(['Zymogenic quartz enzyme']);
  }, 120_000);

  it('finds substrings and typos as scoring every entry does', () => {
    const index = new AnalyteIndex(rows);
    const qs = typos();
    expect(qs.length).toBeGreaterThan(100);
    let typoAnswers = 0;
    for (const q of qs) {
      const answer = index.search(q, 50);
      expect(answer, q).toEqual(index.searchEveryEntry(q, 50));
      if (answer.length > 0 && !answer.some((a) => a.display_name.toLowerCase().includes(q))) typoAnswers++;
    }
    expect(typoAnswers).toBeGreaterThan(10);
  }, 120_000);

  it('answers from its starts exactly what scoring every entry answers', () => {
    const index = new AnalyteIndex(rows);
    const qs = queries();
    expect(qs.length).toBeGreaterThan(200);
    const everything = new Map(qs.map((q) => [q, index.searchEveryEntry(q, Number.MAX_SAFE_INTEGER)]));
    let fromStarts = 0;
    for (const q of qs)
      for (const limit of [1, 10, 50]) {
        const answer = index.search(q, limit);
        expect(answer, `${q} (${limit})`).toEqual(index.searchEveryEntry(q, limit));
        // Only the entries that can be first are ordered by name: the same as ordering them all.
        expect(answer, `${q} (${limit}, all ranked)`).toEqual(everything.get(q)!.slice(0, limit));
        if (answer.length === limit) fromStarts++;
      }
    // Most of these queries have at least `limit` starts: the sorted keys were used, not skipped.
    expect(fromStarts).toBeGreaterThan(qs.length);
  });

  it('still ranks an exact name first, then prefixes, and finds typos when nothing else matches', () => {
    const index = new AnalyteIndex(rows);
    const first = rows[0]!;
    expect(index.search(first.displayName, 50)[0]!.display_name).toBe(first.displayName);
    expect(index.search('xyzzy', 10)).toEqual([]);
    expect(index.search('glucsoe', 10).length).toBeGreaterThan(0);
  });

  it('updated write by write, answers and holds what an index built from the same rows does (decision 066)', () => {
    // A seeded walk of the writes a catalogue sees: renames (to a name another measurand has, too),
    // a new alternative name, a code, a deleted measurand, a new one; after each batch the updated
    // index is compared with one built from the rows as they now are.
    let seed = 66;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const current = new Map(rows.map((r) => [r.id, r]));
    const updated = new AnalyteIndex(rows);
    const qs = [...queries().filter((_, i) => i % 9 === 0), ...typos().slice(0, 30), 'zebrafinch', 'zfk'];
    let nextId = 900_000;
    for (let batch = 0; batch < 12; batch++) {
      const changed: AnalyteRow[] = [];
      const removed: number[] = [];
      const ids = [...current.keys()];
      for (let k = 0; k < 1 + random(4); k++) {
        const id = ids[random(ids.length)]!;
        const row = current.get(id);
        if (!row) continue;
        const other = current.get(ids[random(ids.length)]!) ?? row;
        const kind = random(6);
        let next: AnalyteRow | undefined;
        if (kind === 0) next = { ...row, displayName: `Zebrafinch ${row.displayName}` };
        else if (kind === 1) next = { ...row, displayName: other.displayName };
        else if (kind === 2) next = { ...row, alternateNames: [...row.alternateNames, `ZFK ${batch}`] };
        else if (kind === 3) next = { ...row, loinc: `99${batch}-${k}`, fullName: null };
        else if (kind === 4) {
          current.delete(id);
          removed.push(id);
          continue;
        } else next = { ...other, id: nextId++, displayName: `Zebrafinch kinase ${batch}` };
        current.set(next.id, next);
        changed.push(next);
      }
      updated.update(changed, removed);
      const built = new AnalyteIndex([...current.values()]);
      expect(updated.size, `batch ${batch}`).toBe(current.size);
      expect(updated.snapshot(), `batch ${batch}`).toEqual(built.snapshot());
      for (const q of qs)
        for (const limit of [10, 50]) {
          const answer = updated.search(q, limit);
          expect(answer, `batch ${batch}: ${q} (${limit})`).toEqual(built.search(q, limit));
          // The kept name order moved with the writes as comparing the names would (decision 076).
          if (limit === 50)
            expect(answer, `batch ${batch}: ${q} (${limit}), names compared`).toEqual(
              updated.searchEveryEntry(q, limit),
            );
        }
    }
    // Nothing stale: a new measurand is found at once, and not once deleted; a renamed one by its new name.
    const first = [...current.values()][0]!;
    updated.update([{ ...first, id: 999_999, displayName: 'Quokka oxidase' }]);
    expect(updated.search('quokka', 10)).toEqual([{ id: 999_999, display_name: 'Quokka oxidase' }]);
    updated.update([{ ...first, displayName: 'Wombat lyase' }], [999_999]);
    expect(updated.search('quokka', 10)).toEqual([]);
    expect(updated.search('wombat', 10)).toEqual([{ id: first.id, display_name: 'Wombat lyase' }]);
  }, 120_000);

  it('orders tied names as comparing them in the locale does, not by their code units (decision 076)', () => {
    // Names of one length that a code-unit sort and the collator order differently: punctuation,
    // a space, "ß", digits, and upper case (which the index folds).
    const names = ['Zinc_b', 'Zinc-a', 'Zinc a', 'Zincßa', 'Zinc9a', 'ZINCzz', 'Zincab', 'Zinc.b', 'Zinc10'];
    const base = rows[0]!;
    const made = names.map((displayName, i) => ({
      ...base,
      id: 500_000 + i,
      displayName,
      alternateNames: [],
    }));
    const expected = [...made]
      .sort((a, b) => a.displayName.toLowerCase().localeCompare(b.displayName.toLowerCase()) || a.id - b.id)
      .map((a) => a.displayName);
    const index = new AnalyteIndex([...rows, ...made]);
    expect(index.search('zinc', 50).map((a) => a.display_name)).toEqual(expected);
    // Added one at a time, in reverse, after the index was built: the same order.
    const grown = new AnalyteIndex(rows);
    for (const row of [...made].reverse()) grown.update([row]);
    expect(grown.search('zinc', 50).map((a) => a.display_name)).toEqual(expected);
    // Renamed and removed: the order closes over the gap.
    grown.update([{ ...made[0]!, displayName: 'Zinc#0' }], [made[1]!.id]);
    const after = [...made.slice(2), { ...made[0]!, displayName: 'Zinc#0' }]
      .sort((a, b) => a.displayName.toLowerCase().localeCompare(b.displayName.toLowerCase()) || a.id - b.id)
      .map((a) => a.displayName);
    expect(grown.search('zinc', 50).map((a) => a.display_name)).toEqual(after);
  });
});
