import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/test-app.js';
import { parseBackupBytes as parseRowByRow } from './backup-file-bytes.js';
import { multiplyExport } from '../../bench/multiply-export.js';
import { checkBackupRows, parseBackupBytes, parseBackupText } from './backup-file.js';

let exported: string;
let source: TestContext;
beforeAll(async () => {
  source = await createTestApp();
  exported = (await source.app.inject({ url: '/export/bv_database.json' })).body;
}, 120_000);
afterAll(async () => source?.close());

// Decision 073: `npm run import` reads the file's bytes a row at a time instead of as one string;
// what it reads must be exactly what JSON.parse of the whole text gives, and a bad file must be
// told exactly as before.
describe('a whole-database file read from its bytes, a row at a time', () => {
  it('reads the export as JSON.parse reads its text, pretty-printed or on one line', async () => {
    expect(await parseRowByRow(Buffer.from(exported))).toEqual(JSON.parse(exported));
    const oneLine = JSON.stringify(JSON.parse(exported));
    expect(await parseRowByRow(Buffer.from(oneLine))).toEqual(JSON.parse(oneLine));
    const spaced = JSON.stringify(JSON.parse(exported), null, 2);
    expect(await parseRowByRow(Buffer.from(spaced))).toEqual(JSON.parse(spaced));
  });

  it.each([
    '{"tables":{"x":[{"a":"]\\"}"}], "y":{}, "z":[]}, "n":-1.5e3, "é":"µ≥"}',
    ' {"a":[1,[2,{"b":null}]],"tables":7}\n',
  ])('reads %j as JSON.parse does', async (text) => {
    expect(await parseRowByRow(Buffer.from(text))).toEqual(JSON.parse(text));
  });

  it.each([
    ['a missing comma between rows', '{"tables":{"x":[{"a":1} {"a":2}]}}'],
    ['a comma before the end of a list', '{"tables":{"x":[1,2,]}}'],
    ['a missing colon', '{"tables" {"x":[]}}'],
    ['text after the end', '{"tables":{}} x'],
    ['a byte-order mark', '\ufeff{"tables":{}}'],
    ['a list at the top', '[1]'],
    ['a mismatched bracket in a row', '{"tables":{"x":[{"a":1]]}}'],
    ['a key named __proto__', '{"__proto__":{"tables":{}}}'],
    ['nesting past the limit', `{"tables":{"x":[${'['.repeat(70)}${']'.repeat(70)}]}}`],
    ['a cut-off file', '{"tables":{"x":[{"a":1},'],
  ])('leaves %s to the whole-text parse, for its message', async (_name, text) => {
    expect(await parseRowByRow(Buffer.from(text))).toBeUndefined();
    expect(await parseBackupBytes(Buffer.from(text))).toEqual(parseBackupText(text));
  });
});

// Issue 44.1: an administrator's upload of the 100× file (61 MB) read and checked in one go held the
// server's event loop for 0.9 s. Reading and checking hand it a turn every few milliseconds.
describe('a large whole-database file is read and checked in turns of the event loop', () => {
  /** How many times a 1-ms timer fired while `work` ran: none when it never let the loop turn. */
  async function timerTicksDuring(work: () => Promise<unknown>): Promise<number> {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    try {
      await work();
    } finally {
      clearInterval(timer);
    }
    return ticks;
  }

  it('reads the rows of a large file with timers firing between them, to the same result', async () => {
    const rows = Array.from({ length: 100_000 }, (_, i) => ({
      id: i + 1,
      name: `row ${i}`,
      values: [i, i / 3],
    }));
    const text = JSON.stringify({ format: 'x', tables: { big: rows } });
    let read: unknown;
    const ticks = await timerTicksDuring(async () => (read = await parseRowByRow(Buffer.from(text))));
    expect(ticks).toBeGreaterThan(0);
    expect(read).toEqual(JSON.parse(text));
  });

  it('checks every row of a 20× demo file with timers firing between them, and finds the file sound', async () => {
    const parsed = parseBackupText(multiplyExport(exported, 20));
    const file = parsed.file!;
    expect(file.tables.bv_specifications!.length).toBeGreaterThan(4000);
    let problems: unknown;
    const ticks = await timerTicksDuring(async () => {
      problems = await checkBackupRows(file, async () => new Set(), { merge: false });
    });
    expect(problems).toEqual([]);
    expect(ticks).toBeGreaterThan(0);
  });
});
