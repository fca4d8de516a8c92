import { inflateRawSync } from 'node:zlib';
import { QuireError, type ParseLimits } from '@quire/core';

/** Random access to a stored document (a blob store's getRange), so large inputs are never read whole. */
export interface RandomAccessSource {
  size: number;
  /** Bytes [start, end). */
  read(start: number, end: number): Promise<Uint8Array>;
}

/** Zip entry names from the central directory (EOCD, zip64 aware), reading only the file's tail. */
export async function listZipEntriesByRange(src: RandomAccessSource): Promise<string[]> {
  return (await centralDirectory(src)).map((e) => e.name);
}

interface CentralEntry { name: string; method: number; compressedSize: number; size: number; localOffset: number }

/**
 * Reads single entries of a stored zip by range — the central directory, then each asked-for entry's
 * compressed bytes — with the zip-bomb limits of openSafeZip (ratio, inflated size). For containers too
 * large to read whole whose small parts (a DOCX's document.xml and styles) are needed.
 */
export async function openZipByRange(src: RandomAccessSource, limits: Pick<ParseLimits, 'maxUncompressedBytes' | 'maxCompressionRatio'>): Promise<{ has(name: string): boolean; text(name: string): Promise<string | undefined> }> {
  const entries = new Map((await centralDirectory(src)).map((e) => [e.name, e]));
  const find = (name: string) => entries.get(name.replace(/^\//, ''));
  return {
    has: (name) => find(name) !== undefined,
    async text(name) {
      const e = find(name);
      if (!e) return undefined;
      if (e.size > limits.maxUncompressedBytes || (e.compressedSize > 0 && e.size / e.compressedSize > limits.maxCompressionRatio && e.size > 1024 * 1024)) {
        throw new QuireError('FILE_003', `Archive entry ${e.name} inflates past the limits (zip bomb?)`, { reason: 'zip_size_limit' });
      }
      const local = Buffer.from(await src.read(e.localOffset, e.localOffset + 30));
      if (local.length < 30 || local.readUInt32LE(0) !== 0x04034b50) throw corruptZip();
      const start = e.localOffset + 30 + local.readUInt16LE(26) + local.readUInt16LE(28);
      const raw = Buffer.from(await src.read(start, start + e.compressedSize));
      let out: Buffer;
      try {
        out = e.method === 0 ? raw : e.method === 8 ? inflateRawSync(raw, { maxOutputLength: limits.maxUncompressedBytes }) : (() => { throw corruptZip(); })();
      } catch (err) {
        if ((err as { code?: string }).code === 'FILE_003') throw err;
        throw new QuireError('FILE_003', `File corrupted: zip entry ${e.name} cannot be inflated`, { reason: (err as Error).message });
      }
      return out.toString('utf8');
    },
  };
}

const corruptZip = () => new QuireError('FILE_003', 'File corrupted: not a readable zip/OOXML container');

async function centralDirectory(src: RandomAccessSource): Promise<CentralEntry[]> {
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
  const out: CentralEntry[] = [];
  for (let i = 0; i + 46 <= cd.length;) {
    if (cd.readUInt32LE(i) !== 0x02014b50) throw corrupt();
    const nameLen = cd.readUInt16LE(i + 28), extraLen = cd.readUInt16LE(i + 30), commentLen = cd.readUInt16LE(i + 32);
    const e: CentralEntry = {
      name: cd.toString('utf8', i + 46, i + 46 + nameLen), method: cd.readUInt16LE(i + 10),
      compressedSize: cd.readUInt32LE(i + 20), size: cd.readUInt32LE(i + 24), localOffset: cd.readUInt32LE(i + 42),
    };
    readZip64Extra(e, cd.subarray(i + 46 + nameLen, i + 46 + nameLen + extraLen));
    out.push(e);
    i += 46 + nameLen + extraLen + commentLen;
  }
  return out;
}

/** Sizes and offset saturated at 0xffffffff are in the zip64 extra field, in this order, those only. */
function readZip64Extra(e: CentralEntry, extra: Buffer): void {
  for (let j = 0; j + 4 <= extra.length;) {
    const id = extra.readUInt16LE(j), len = extra.readUInt16LE(j + 2);
    if (id === 0x0001) {
      let k = j + 4;
      const next = () => { const v = k + 8 <= j + 4 + len ? Number(extra.readBigUInt64LE(k)) : undefined; k += 8; return v; };
      if (e.size === 0xffffffff) e.size = next() ?? e.size;
      if (e.compressedSize === 0xffffffff) e.compressedSize = next() ?? e.compressedSize;
      if (e.localOffset === 0xffffffff) e.localOffset = next() ?? e.localOffset;
      return;
    }
    j += 4 + len;
  }
}
