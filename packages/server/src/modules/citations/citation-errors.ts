/**
 * citation-js reports a BibTeX syntax error in its parser's words: token names ("rbrace",
 * "label"), the grammar path (`Main->Entry->EntryBody->…`) and a drawing of the line. None of that
 * is for a curator: the position is kept, the rest is said in plain words.
 */

const EXPECTED: Record<string, string> = {
  label: 'an entry key (as in @article{smith2020, …)',
  dataEntryType: 'an entry type (as in @article)',
  comma: 'a comma',
  lbrace: 'a "{"',
  rbrace: 'a "}" or a comma between fields',
  equals: 'a "=" after the field name',
  text: 'the rest of a value',
};

const FOUND: Record<string, string> = {
  comma: 'a comma',
  lbrace: 'a "{"',
  rbrace: 'a "}"',
  equals: 'a "="',
  hash: 'a "#"',
  quote: 'a quotation mark',
  number: 'a number',
  identifier: 'a word',
  label: 'a word',
  at: 'an "@"',
};

const HOW = 'Each entry reads @type{key, field = {value}, …}.';

/** The line as the curator wrote it, short and printable, to show where to look. */
function excerpt(text: string, line: number): string {
  const raw = text.split(/\r\n?|\n/)[line - 1] ?? '';
  // eslint-disable-next-line no-control-regex -- control characters are what this removes
  const clean = raw.replace(/[\u0000-\u001f\u007f-\u009f\ufffd]/g, ' ').trim();
  return clean.length > 60 ? `${clean.slice(0, 57)}…` : clean;
}

/** A human message for a BibTeX file citation-js could not parse; never the parser's own text. */
export function describeBibtexError(parserMessage: string, text: string): string {
  const at = /at line (\d+) col (\d+)/.exec(parserMessage);
  if (!at) return `The BibTeX file could not be read. ${HOW}`;
  const line = Number(at[1]);
  const shown = excerpt(text, line);
  const where = `near line ${line}, column ${at[2]}${shown ? ` ("${shown}")` : ''}`;
  const expected = /expected "(\w+)", got (EOF|"(\w+)")/.exec(parserMessage);
  let what = 'unexpected characters';
  if (expected) {
    const want = EXPECTED[expected[1]!] ?? 'something else';
    what =
      expected[2] === 'EOF'
        ? `${want} was expected, but the file ends first (an unclosed "{" or quotation mark?)`
        : `${want} was expected, but ${FOUND[expected[3]!] ?? 'something else'} came first`;
  }
  return `The BibTeX file could not be read ${where}: ${what}. ${HOW}`;
}
