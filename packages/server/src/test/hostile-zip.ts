import { crc32, createDeflateRaw, deflateRawSync, inflateRawSync } from 'node:zlib';

/** A zip member as written: its name, the deflated bytes, and the sizes the headers declare. */
export interface ZipMember {
  name: string;
  deflated: Buffer;
  /** The uncompressed size the headers state (may lie). */
  size: number;
  crc: number;
}

export const member = (name: string, content: string | Buffer): ZipMember => {
  const bytes = Buffer.isBuffer(content) ? content : Buffer.from(content, 'utf8');
  return { name, deflated: deflateRawSync(bytes), size: bytes.length, crc: crc32(bytes) };
};

/** `megabytes` of spaces, deflated as they stream (never held whole): a zip bomb's payload. */
export async function deflatedSpaces(megabytes: number): Promise<Buffer> {
  const deflate = createDeflateRaw({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (c: Buffer) => out.push(c));
  const done = new Promise((resolve) => deflate.on('end', resolve));
  const chunk = Buffer.alloc(1024 * 1024, ' ');
  for (let i = 0; i < megabytes; i++) {
    if (!deflate.write(chunk)) await new Promise((r) => deflate.once('drain', r));
  }
  deflate.end();
  await done;
  return Buffer.concat(out);
}

/** A zip file written byte by byte, so that its headers can say what the test wants them to. */
export function writeZip(members: ZipMember[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const m of members) {
    const name = Buffer.from(m.name, 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(m.crc, 14);
    local.writeUInt32LE(m.deflated.length, 18);
    local.writeUInt32LE(m.size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(m.crc, 16);
    central.writeUInt32LE(m.deflated.length, 20);
    central.writeUInt32LE(m.size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, m.deflated);
    centrals.push(central, name);
    offset += 30 + name.length + m.deflated.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(members.length, 8);
  end.writeUInt16LE(members.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** The members of a well-formed zip (as exceljs writes it), by its central directory. */
function readZip(zip: Buffer): { name: string; content: Buffer }[] {
  let end = zip.length - 22;
  while (zip.readUInt32LE(end) !== 0x06054b50) end--;
  const out: { name: string; content: Buffer }[] = [];
  let at = zip.readUInt32LE(end + 16);
  for (let i = zip.readUInt16LE(end + 10); i > 0; i--) {
    const nameLength = zip.readUInt16LE(at + 28);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    const local = zip.readUInt32LE(at + 42);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(start, start + zip.readUInt32LE(at + 20));
    if (!name.endsWith('/')) {
      out.push({ name, content: zip.readUInt16LE(at + 10) === 8 ? inflateRawSync(data) : data });
    }
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return out;
}

/** The members of an .xlsx (as exceljs wrote it), with `edit` applied to the ones it names. */
export function rewriteXlsx(xlsx: Buffer, edit: Record<string, (xml: string) => string | ZipMember>): Buffer {
  return writeZip(
    readZip(xlsx).map(({ name, content }) => {
      const change = edit[name];
      const changed = change ? change(content.toString('utf8')) : content;
      return typeof changed === 'string' || Buffer.isBuffer(changed) ? member(name, changed) : changed;
    }),
  );
}
