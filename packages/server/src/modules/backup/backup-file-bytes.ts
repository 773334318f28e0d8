import { MAX_JSON_DEPTH } from '../../lib/json-depth.js';
import { turnAfter } from '../../lib/loop-turns.js';

/** How long the reading runs before it hands the event loop a turn (issue 44.1). */
const TURN_MS = 10;

/** Thrown inside the scanner for anything it does not expect: the caller parses the text whole. */
class NotRowByRow extends Error {}
/** One instance, made once: a bad file costs no stack trace per throw. */
const UNEXPECTED = new NotRowByRow('not readable a row at a time');

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const isSpace = (c: number | undefined) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/**
 * A whole-database file read from its bytes a row at a time: each row (and each other value) is
 * decoded and parsed on its own, so the file never becomes one string. That string is as large as
 * the file, twice that when it holds one character beyond Latin-1 (a 61.5 MB file at 100× the
 * demo: 123 MB), and it was held beside every parsed row (decision 073). The result is what
 * JSON.parse of the whole text gives; the skeleton between values (braces, brackets, commas,
 * colons) is checked here, every value by JSON.parse. Anything unexpected (invalid JSON, a `__proto__`
 * key, nesting deeper than MAX_JSON_DEPTH, a byte-order mark) gives `undefined`: the caller then
 * parses the whole text as before, so a bad file gets the very same message. Between rows it hands
 * the event loop a turn every TURN_MS: a server reading an administrator's upload keeps answering.
 */
export async function parseBackupBytes(bytes: Buffer): Promise<Record<string, unknown> | undefined> {
  try {
    return await new RowScanner(bytes).document();
  } catch (err) {
    if (err === UNEXPECTED) return undefined;
    throw err;
  }
}

class RowScanner {
  private i = 0;
  private readonly pause = turnAfter(TURN_MS);
  constructor(private readonly b: Buffer) {}

  async document(): Promise<Record<string, unknown>> {
    this.skipSpace();
    const doc = await this.object(1, (key, depth) =>
      key === 'tables' ? this.tables(depth) : this.value(depth),
    );
    this.skipSpace();
    if (this.i !== this.b.length) throw UNEXPECTED;
    return doc;
  }

  /** `"tables": {"name": [row, …], …}`: each table's rows parsed one by one. */
  private tables(depth: number): unknown {
    if (this.b[this.i] !== OPEN_OBJECT) return this.value(depth);
    return this.object(depth + 1, (_name, inner) =>
      this.b[this.i] === OPEN_ARRAY ? this.rows(inner) : this.value(inner),
    );
  }

  private async rows(depth: number): Promise<unknown[]> {
    this.i++; // [
    const rows: unknown[] = [];
    this.skipSpace();
    if (this.b[this.i] === CLOSE_ARRAY) {
      this.i++;
      return rows;
    }
    for (;;) {
      const turn = this.pause();
      if (turn) await turn;
      this.skipSpace();
      rows.push(this.value(depth + 1));
      this.skipSpace();
      const c = this.b[this.i++];
      if (c === CLOSE_ARRAY) return rows;
      if (c !== COMMA) throw UNEXPECTED;
    }
  }

  /** An object whose values `member` reads; `depth` is the object's own nesting level. */
  private async object(
    depth: number,
    member: (key: string, depth: number) => unknown,
  ): Promise<Record<string, unknown>> {
    if (this.b[this.i] !== OPEN_OBJECT || depth > MAX_JSON_DEPTH) throw UNEXPECTED;
    this.i++;
    const out: Record<string, unknown> = {};
    this.skipSpace();
    if (this.b[this.i] === CLOSE_OBJECT) {
      this.i++;
      return out;
    }
    for (;;) {
      this.skipSpace();
      if (this.b[this.i] !== QUOTE) throw UNEXPECTED;
      const key = this.value(depth);
      // An own property named __proto__, as JSON.parse makes it, cannot be made by assignment.
      if (typeof key !== 'string' || key === '__proto__') throw UNEXPECTED;
      this.skipSpace();
      if (this.b[this.i++] !== COLON) throw UNEXPECTED;
      this.skipSpace();
      out[key] = await member(key, depth);
      this.skipSpace();
      const c = this.b[this.i++];
      if (c === CLOSE_OBJECT) return out;
      if (c !== COMMA) throw UNEXPECTED;
    }
  }

  /** One complete value, decoded and parsed on its own; `depth` is the level it sits in. */
  private value(depth: number): unknown {
    const start = this.i;
    this.i = this.valueEnd(start, depth);
    try {
      return JSON.parse(this.b.toString('utf8', start, this.i));
    } catch {
      throw UNEXPECTED;
    }
  }

  /** Where the value starting at `start` ends: strings and brackets skipped, nesting counted. */
  private valueEnd(start: number, depth: number): number {
    const b = this.b;
    const n = b.length;
    let j = start;
    const first = b[j];
    if (first === QUOTE) {
      for (j++; j < n; j++) {
        if (b[j] === BACKSLASH) j++;
        else if (b[j] === QUOTE) return j + 1;
      }
      throw UNEXPECTED;
    }
    if (first !== OPEN_OBJECT && first !== OPEN_ARRAY) {
      // A number, true, false or null: up to the next separator (JSON.parse checks the rest).
      while (j < n && b[j] !== COMMA && b[j] !== CLOSE_ARRAY && b[j] !== CLOSE_OBJECT && !isSpace(b[j])) j++;
      if (j === start) throw UNEXPECTED;
      return j;
    }
    let open = 0;
    let inString = false;
    for (; j < n; j++) {
      const c = b[j];
      if (inString) {
        if (c === BACKSLASH) j++;
        else if (c === QUOTE) inString = false;
      } else if (c === QUOTE) inString = true;
      else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
        if (depth + ++open > MAX_JSON_DEPTH) throw UNEXPECTED;
      } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
        if (--open === 0) return j + 1;
      }
    }
    throw UNEXPECTED;
  }

  private skipSpace(): void {
    while (isSpace(this.b[this.i])) this.i++;
  }
}
