/**
 * Sets the modification date of every entry of a zip file (an .xlsx) to `date`, in place, so the
 * same contents give the same bytes whenever they are zipped (decision 058). The zip writer stamps
 * each entry with the time it was added (in local time); the dates live in two places per entry —
 * its local header and its central-directory record — and no checksum covers them, so the bytes
 * are patched rather than the archive rewritten. Throws on anything that is not a plain zip.
 */
export function fixZipDates(zip: Buffer, date: Date): Buffer {
  const { time, day } = dosDateTime(date);
  const end = findEndOfCentralDirectory(zip);
  const entries = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  for (let i = 0; i < entries; i++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error('Not a zip file: bad central directory');
    zip.writeUInt16LE(time, at + 12);
    zip.writeUInt16LE(day, at + 14);
    const local = zip.readUInt32LE(at + 42);
    if (zip.readUInt32LE(local) !== 0x04034b50) throw new Error('Not a zip file: bad local header');
    zip.writeUInt16LE(time, local + 10);
    zip.writeUInt16LE(day, local + 12);
    if (hasTimeExtra(zip, at + 46 + zip.readUInt16LE(at + 28), zip.readUInt16LE(at + 30))) {
      throw new Error('Zip entries carry extended timestamps: not fixed');
    }
    at += 46 + zip.readUInt16LE(at + 28) + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return zip;
}

/** MS-DOS date and time fields (2-second resolution), of the UTC clock: the file says no zone. */
function dosDateTime(date: Date): { time: number; day: number } {
  return {
    time: (date.getUTCHours() << 11) | (date.getUTCMinutes() << 5) | (date.getUTCSeconds() >> 1),
    day: ((date.getUTCFullYear() - 1980) << 9) | ((date.getUTCMonth() + 1) << 5) | date.getUTCDate(),
  };
}

function findEndOfCentralDirectory(zip: Buffer): number {
  // The record is 22 bytes plus a comment of at most 65,535 bytes, at the very end.
  for (let at = zip.length - 22; at >= Math.max(0, zip.length - 22 - 0xffff); at--) {
    if (zip.readUInt32LE(at) === 0x06054b50) return at;
  }
  throw new Error('Not a zip file: no end of central directory');
}

/** Whether an entry's extra fields hold another clock (0x5455 extended timestamp, 0x000a NTFS). */
function hasTimeExtra(zip: Buffer, from: number, length: number): boolean {
  for (let at = from; at + 4 <= from + length; at += 4 + zip.readUInt16LE(at + 2)) {
    const id = zip.readUInt16LE(at);
    if (id === 0x5455 || id === 0x000a) return true;
  }
  return false;
}
