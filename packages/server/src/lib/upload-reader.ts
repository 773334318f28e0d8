import type { core } from 'zod';
import { AppError, type FieldMessage } from './app-error.js';

// Reading an upload of lines (a test menu, an estimation's results), written once for the modules
// that take one (decision 078): the JSON body's shape checked on the event loop before it is cloned
// into a thread, its size as text, a file told apart as a workbook or text, the contract's issues
// named by line, and a sheet reader's refusal as the app's error. It knows no module: the lines'
// key, limits and messages are the caller's.

/** The shape a JSON body of lines must have before it goes to a thread. */
export interface JsonLinesShape {
  /** The array holding the lines: "tests", "rows". */
  key: string;
  /** At most this many lines: past it a 422 with `tooMany`'s message. */
  max: number;
  tooMany: (count: number) => string;
  /** The 400's message for a body that is not an object (and, without `noArray`, one without the array). */
  send: string;
  noArray?: string;
  /** The 400's message for an empty array; without it an empty array passes (the contract says why). */
  empty?: string;
  /** Checks one line (numbered from 1); throws an AppError. */
  line?: (line: unknown, number: number) => void;
}

/**
 * Checked on the event loop before a JSON body is cloned into a thread: an object with its array
 * of at most `max` lines (400 otherwise, 422 past the count). Answers the body as an object.
 */
export function checkJsonLines(body: unknown, shape: JsonLinesShape): Record<string, unknown> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new AppError('bad_request', shape.send);
  const lines = (body as Record<string, unknown>)[shape.key];
  if (!Array.isArray(lines)) throw new AppError('bad_request', shape.noArray ?? shape.send);
  if (lines.length === 0 && shape.empty) throw new AppError('bad_request', shape.empty);
  if (lines.length > shape.max) throw new AppError('unprocessable', shape.tooMany(lines.length));
  if (shape.line) lines.forEach((line: unknown, i) => shape.line!(line, i + 1));
  return body as Record<string, unknown>;
}

/** 413 past `maxBytes` by the text's own length (the body limit catches a declared length first). */
export function checkTextBytes(text: string, maxBytes: number): void {
  const bytes = Buffer.byteLength(text);
  if (bytes > maxBytes) {
    throw new AppError(
      'payload_too_large',
      `The body is ${Math.ceil(bytes / 1024)} KB: at most ${maxBytes / 1024} KB`,
    );
  }
}

/**
 * The contract's issues with a JSON body of lines as the app's 400: each issue's path, the line
 * numbered from 1 as the person counts them ("tests.3.cva"), the first five in the message.
 */
export function jsonLinesError(issues: readonly core.$ZodIssue[], key: string, hint = ''): AppError {
  const fields: FieldMessage[] = issues.map((i) => ({
    path:
      i.path.map((p, k) => (k === 1 && i.path[0] === key && typeof p === 'number' ? p + 1 : p)).join('.') ||
      '(body)',
    message: i.message,
  }));
  return new AppError(
    'bad_request',
    `The JSON body is not valid: ${fields
      .slice(0, 5)
      .map((f) => `${f.path} ${f.message}`)
      .join('; ')}${hint}`,
    { fields },
  );
}

/** An uploaded file's bytes, as a thread receives them. */
export interface UploadedBytes {
  bytes: Uint8Array;
  fileName: string | undefined;
}

export const bufferOf = (bytes: Uint8Array): Buffer =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** An .xlsx by its zip signature; a file named .xlsx is read as one too (and refused if it is not). */
export const isZip = (bytes: Buffer): boolean => bytes.length >= 4 && bytes.readUInt32LE(0) === 0x04034b50;
export const isWorkbookUpload = (bytes: Buffer, fileName: string | undefined): boolean =>
  isZip(bytes) || /\.xlsx$/i.test(fileName ?? '');

/** A file that is not a workbook, as UTF-8 text; a 400 when it is not UTF-8. */
export function uploadedText(bytes: Buffer): string {
  const text = bytes.toString('utf8');
  if (text.includes('\uFFFD'))
    throw new AppError('bad_request', 'The file is neither an .xlsx workbook nor UTF-8 CSV text');
  return text;
}

/** What a sheet reader throws for a file it cannot read: a message for the person, and whether it is too large. */
export interface SheetProblem extends Error {
  readonly tooLarge: boolean;
}

/**
 * A workbook read by `read`, its refusals (instances of `problem`, the sheet reader's error class)
 * as the app's errors on the `file` field: 413 when too large, 422 past the rows allowed, else 400.
 */
export async function readWorkbookUpload<S>(
  read: () => Promise<S>,
  problem: abstract new (...args: never[]) => SheetProblem,
): Promise<S> {
  try {
    return await read();
  } catch (err) {
    if (!(err instanceof problem)) throw err;
    const code = err.tooLarge
      ? 'payload_too_large'
      : /rows of data/.test(err.message)
        ? 'unprocessable'
        : 'bad_request';
    throw new AppError(code, err.message, { fields: [{ path: 'file', message: err.message }] });
  }
}
