import JSZip from 'jszip';
import { QuireError, type ParseLimits } from '@quire/core';

/**
 * Opens an OOXML (zip) container with the zip-bomb limits applied before any entry is inflated:
 * entry count, total declared uncompressed size, and per-entry compression ratio. Entries are then
 * read lazily, and each read re-checks the real inflated size (declared sizes can lie).
 */
export interface SafeZip {
  names(): string[];
  has(name: string): boolean;
  text(name: string): Promise<string | undefined>;
  bytes(name: string): Promise<Uint8Array | undefined>;
  /** Streams an entry (large sheet XML) without inflating it into one string. */
  stream(name: string): NodeJS.ReadableStream | undefined;
}

interface EntryData { compressedSize?: number; uncompressedSize?: number }

export async function openSafeZip(bytes: Uint8Array, limits: ParseLimits): Promise<SafeZip> {
  let zip: JSZip;
  try {
    zip = await JSZip.loadAsync(bytes, { checkCRC32: false });
  } catch (e) {
    throw new QuireError('FILE_003', 'File corrupted: not a readable zip/OOXML container', { reason: (e as Error).message });
  }
  const entries = Object.values(zip.files).filter((f) => !f.dir);
  if (entries.length > limits.maxZipEntries) {
    throw new QuireError('FILE_003', `Archive has ${entries.length} entries (limit ${limits.maxZipEntries})`, { reason: 'zip_entry_limit' });
  }
  let total = 0;
  for (const f of entries) {
    const d = (f as unknown as { _data?: EntryData })._data ?? {};
    const u = d.uncompressedSize ?? 0, c = d.compressedSize ?? 0;
    total += u;
    if (c > 0 && u / c > limits.maxCompressionRatio && u > 1024 * 1024) {
      throw new QuireError('FILE_003', `Archive entry ${f.name} has a compression ratio over ${limits.maxCompressionRatio}:1 (zip bomb?)`, { reason: 'zip_ratio_limit' });
    }
  }
  if (total > limits.maxUncompressedBytes) {
    throw new QuireError('FILE_003', `Archive would inflate to ${total} bytes (limit ${limits.maxUncompressedBytes})`, { reason: 'zip_size_limit' });
  }
  const find = (name: string) => zip.file(name.replace(/^\//, '')) ?? undefined;
  const checked = <T extends { length: number } | Uint8Array>(name: string, v: T, size: number) => {
    if (size > limits.maxUncompressedBytes) throw new QuireError('FILE_003', `Entry ${name} inflates past the size limit`, { reason: 'zip_size_limit' });
    return v;
  };
  return {
    names: () => entries.map((f) => f.name),
    has: (name) => find(name) !== undefined,
    async text(name) {
      const f = find(name);
      if (!f) return undefined;
      const s = await f.async('string');
      return checked(name, s, s.length);
    },
    async bytes(name) {
      const f = find(name);
      if (!f) return undefined;
      const b = await f.async('uint8array');
      return checked(name, b, b.byteLength);
    },
    stream(name) {
      const f = find(name);
      return f ? f.nodeStream('nodebuffer') : undefined;
    },
  };
}

/** Lists entry names from a zip's central directory without inflating anything (for file-type sniffing). */
export async function listZipEntries(bytes: Uint8Array): Promise<string[]> {
  try {
    const zip = await JSZip.loadAsync(bytes, { checkCRC32: false });
    return Object.keys(zip.files);
  } catch {
    throw new QuireError('FILE_003', 'File corrupted: not a readable zip/OOXML container');
  }
}
