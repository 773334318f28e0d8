import { Readable, Transform } from 'node:stream';
import { createInflateRaw, inflateRawSync } from 'node:zlib';
import { SheetError } from './sheet-error.js';

/** What a filled template may hold once unpacked: 5,000 rows of 70 filled columns are 24 MB. */
export const XLSX_MAX_UNZIPPED_BYTES = 48 * 1024 * 1024;
/** Parts of a workbook: a template has about 20. */
export const XLSX_MAX_ENTRIES = 500;

const n = (v: number) => v.toLocaleString('en-GB');
const damaged = (why: string) =>
  new SheetError(`The file is not a readable .xlsx workbook (${why}). Save it again.`);

/** Where the central directory ends: a truncated file has no end record. */
function endRecord(bytes: Buffer): number {
  const min = Math.max(0, bytes.length - 65_557);
  for (let i = bytes.length - 22; i >= min; i--) if (bytes.readUInt32LE(i) === 0x06054b50) return i;
  throw new SheetError(
    'The file is incomplete (truncated?): it is not a readable .xlsx workbook. Save it again.',
  );
}

export interface ZipEntry {
  name: string;
  method: number;
  compressed: number;
  size: number;
  local: number;
}

/** The members of a zip file as its central directory declares them, the declared sizes bounded. */
export function listEntries(bytes: Buffer, maxUnzippedBytes = XLSX_MAX_UNZIPPED_BYTES): ZipEntry[] {
  const end = endRecord(bytes);
  const count = bytes.readUInt16LE(end + 10);
  let at = bytes.readUInt32LE(end + 16);
  if (count === 0xffff || at === 0xffffffff) throw damaged('a ZIP64 archive, which a template never is');
  if (count > XLSX_MAX_ENTRIES) {
    throw new SheetError(`The workbook has ${n(count)} parts: at most ${n(XLSX_MAX_ENTRIES)} are read.`);
  }
  const entries: ZipEntry[] = [];
  let total = 0;
  for (let i = 0; i < count; i++) {
    if (at + 46 > bytes.length || bytes.readUInt32LE(at) !== 0x02014b50) {
      throw new SheetError(
        'The file is incomplete (truncated?): it is not a readable .xlsx workbook. Save it again.',
      );
    }
    const nameLength = bytes.readUInt16LE(at + 28);
    const entry = {
      name: bytes.toString('utf8', at + 46, at + 46 + nameLength),
      method: bytes.readUInt16LE(at + 10),
      compressed: bytes.readUInt32LE(at + 20),
      size: bytes.readUInt32LE(at + 24),
      local: bytes.readUInt32LE(at + 42),
    };
    total += entry.size;
    if (total > maxUnzippedBytes) {
      throw new SheetError(
        `The workbook declares more than ${n(maxUnzippedBytes / 1024 / 1024)} MB once unpacked: at most that is read. Split the rows over several files.`,
        true,
      );
    }
    entries.push(entry);
    at += 46 + nameLength + bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32);
  }
  return entries;
}

/** A member's packed bytes, as its local header places them. */
function packedData(bytes: Buffer, e: ZipEntry): Buffer {
  if (e.local + 30 > bytes.length || bytes.readUInt32LE(e.local) !== 0x04034b50)
    throw damaged(`${e.name} is missing`);
  const start = e.local + 30 + bytes.readUInt16LE(e.local + 26) + bytes.readUInt16LE(e.local + 28);
  if (start + e.compressed > bytes.length) throw damaged(`${e.name} is cut short`);
  return bytes.subarray(start, start + e.compressed);
}

/**
 * One member's bytes as a stream, unpacked a piece at a time (never held whole) and stopped with an
 * error past its declared size: a member that lies about its size is not read further.
 */
export function inflateStream(bytes: Buffer, e: ZipEntry): Readable {
  const data = packedData(bytes, e);
  if (e.method !== 0 && e.method !== 8) throw damaged(`${e.name} is packed in a way Excel does not use`);
  let seen = 0;
  const bounded = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (seen > e.size) {
        done(
          new SheetError(
            `The workbook is damaged: its part ${e.name} unpacks to more than the size it declares. Save it again.`,
          ),
        );
      } else done(null, chunk);
    },
  });
  const source = Readable.from([data]);
  const unpacked = e.method === 0 ? source : source.pipe(createInflateRaw());
  unpacked.on('error', (err) =>
    bounded.destroy(err instanceof SheetError ? err : damaged(`${e.name} cannot be unpacked`)),
  );
  return unpacked.pipe(bounded);
}

/** One member's bytes, inflated no further than its declared size (a zip bomb stops there). */
function inflate(bytes: Buffer, e: ZipEntry): Buffer {
  const data = packedData(bytes, e);
  let out: Buffer;
  if (e.method === 0) out = data;
  else if (e.method === 8) {
    try {
      out = inflateRawSync(data, { maxOutputLength: Math.max(1, e.size) });
    } catch (err) {
      if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') out = Buffer.alloc(e.size + 1);
      else throw damaged(`${e.name} cannot be unpacked`);
    }
  } else throw damaged(`${e.name} is packed in a way Excel does not use`);
  if (out.length !== e.size) {
    throw new SheetError(
      `The workbook is damaged: its part ${e.name} unpacks to ${out.length > e.size ? 'more' : 'less'} than the size it declares. Save it again.`,
    );
  }
  return out;
}

/**
 * Every member of an .xlsx (a zip file) checked before a workbook library inflates it: the sizes
 * as declared (their total bounded) and as actually inflated (each stopped at its declared size,
 * and refused when it differs: a file that lies about its sizes is not read). `visit` sees each
 * member's bytes in turn, so only one is held at a time.
 */
export function checkZipEntries(bytes: Buffer, visit: (name: string, content: Buffer) => void): void {
  for (const entry of listEntries(bytes)) visit(entry.name, inflate(bytes, entry));
}
