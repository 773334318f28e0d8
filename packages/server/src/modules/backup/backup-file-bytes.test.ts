import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/test-app.js';
import { parseBackupBytes as parseRowByRow } from './backup-file-bytes.js';
import { parseBackupBytes, parseBackupText } from './backup-file.js';

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
  it('reads the export as JSON.parse reads its text, pretty-printed or on one line', () => {
    expect(parseRowByRow(Buffer.from(exported))).toEqual(JSON.parse(exported));
    const oneLine = JSON.stringify(JSON.parse(exported));
    expect(parseRowByRow(Buffer.from(oneLine))).toEqual(JSON.parse(oneLine));
    const spaced = JSON.stringify(JSON.parse(exported), null, 2);
    expect(parseRowByRow(Buffer.from(spaced))).toEqual(JSON.parse(spaced));
  });

  it.each([
    '{"tables":{"x":[{"a":"]\\"}"}], "y":{}, "z":[]}, "n":-1.5e3, "é":"µ≥"}',
    ' {"a":[1,[2,{"b":null}]],"tables":7}\n',
  ])('reads %j as JSON.parse does', (text) => {
    expect(parseRowByRow(Buffer.from(text))).toEqual(JSON.parse(text));
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
  ])('leaves %s to the whole-text parse, for its message', (_name, text) => {
    expect(parseRowByRow(Buffer.from(text))).toBeUndefined();
    expect(parseBackupBytes(Buffer.from(text))).toEqual(parseBackupText(text));
  });
});
