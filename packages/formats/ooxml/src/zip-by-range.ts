import { QuireError } from '@quire/core';

/** Random access to a stored document (a blob store's getRange), so large inputs are never read whole. */
export interface RandomAccessSource {
  size: number;
  /** Bytes [start, end). */
  read(start: number, end: number): Promise<Uint8Array>;
}

/** Zip entry names from the central directory (EOCD, zip64 aware), reading only the file's tail. */
export async function listZipEntriesByRange(src: RandomAccessSource): Promise<string[]> {
  const corrupt = () => new QuireError('FILE_003', 'File corrupted: not a readable zip/OOXML container');
  const tailLen = Math.min(src.size, 22 + 65535 + 20);
  const tailStart = src.size - tailLen;
  const tail = Buffer.from(await src.read(tailStart, src.size));
  let eocd = -1;
  for (let i = tail.length - 22; i >= 0; i--) if (tail.readUInt32LE(i) === 0x06054b50) { eocd = i; break; }
  if (eocd < 0) throw corrupt();
  let cdSize = tail.readUInt32LE(eocd + 12);
  let cdOffset = tail.readUInt32LE(eocd + 16);
  if (cdOffset === 0xffffffff || cdSize === 0xffffffff) {
    const loc = eocd - 20;
    if (loc < 0 || tail.readUInt32LE(loc) !== 0x07064b50) throw corrupt();
    const z64At = Number(tail.readBigUInt64LE(loc + 8));
    const z64 = Buffer.from(await src.read(z64At, z64At + 56));
    if (z64.length < 56 || z64.readUInt32LE(0) !== 0x06064b50) throw corrupt();
    cdSize = Number(z64.readBigUInt64LE(40));
    cdOffset = Number(z64.readBigUInt64LE(48));
  }
  if (cdOffset + cdSize > src.size || cdSize > 64 * 1024 * 1024) throw corrupt();
  const cd = Buffer.from(await src.read(cdOffset, cdOffset + cdSize));
  const names: string[] = [];
  for (let i = 0; i + 46 <= cd.length;) {
    if (cd.readUInt32LE(i) !== 0x02014b50) throw corrupt();
    const nameLen = cd.readUInt16LE(i + 28), extraLen = cd.readUInt16LE(i + 30), commentLen = cd.readUInt16LE(i + 32);
    names.push(cd.toString('utf8', i + 46, i + 46 + nameLen));
    i += 46 + nameLen + extraLen + commentLen;
  }
  return names;
}
