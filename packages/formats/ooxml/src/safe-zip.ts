import { Transform } from 'node:stream';
import JSZip from 'jszip';
import { QuireError, type ParseLimits } from '@quire/core';

/**
 * Opens an OOXML (zip) container with the zip-bomb limits applied before any entry is inflated:
 * entry count, total declared uncompressed size, and per-entry compression ratio. Entries are then
 * read lazily as streams that stop at the entry's declared size and at the size limit (declared sizes
 * can lie: the real inflated bytes are counted as they come).
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
  /**
   * An entry's inflated bytes as a stream that fails with FILE_003 the moment it passes the entry's
   * declared size (a lying header) or the size limit, so that neither is ever inflated whole; JSZip's
   * own errors (a damaged entry) become FILE_003 too.
   */
  const bounded = (f: JSZip.JSZipObject): NodeJS.ReadableStream => {
    const declared = (f as unknown as { _data?: EntryData })._data?.uncompressedSize ?? 0;
    const cap = declared > 0 ? Math.min(declared, limits.maxUncompressedBytes) : limits.maxUncompressedBytes;
    let seen = 0;
    const source = f.nodeStream('nodebuffer');
    const out = new Transform({
      transform(chunk: Buffer, _enc, done) {
        seen += chunk.length;
        if (seen <= cap) { done(null, chunk); return; }
        const reason = seen > limits.maxUncompressedBytes ? 'inflates past the size limit' : `inflates past the ${declared} bytes its header declares`;
        done(new QuireError('FILE_003', `File corrupted: archive entry ${f.name} ${reason} (zip bomb?)`, { reason: 'zip_size_limit' }));
      },
    });
    source.on('error', (e: Error) => out.destroy(e instanceof QuireError ? e : new QuireError('FILE_003', `File corrupted: archive entry ${f.name} cannot be inflated`, { reason: e.message })));
    out.on('error', () => (source as unknown as { destroy?: () => void }).destroy?.());
    return source.pipe(out);
  };
  const collect = async (f: JSZip.JSZipObject): Promise<Buffer> => {
    const chunks: Buffer[] = [];
    for await (const c of bounded(f) as AsyncIterable<Buffer>) chunks.push(c);
    return Buffer.concat(chunks);
  };
  return {
    names: () => entries.map((f) => f.name),
    has: (name) => find(name) !== undefined,
    async text(name) {
      const f = find(name);
      return f ? (await collect(f)).toString('utf8') : undefined;
    },
    async bytes(name) {
      const f = find(name);
      if (!f) return undefined;
      const b = await collect(f);
      return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
    },
    stream(name) {
      const f = find(name);
      return f ? bounded(f) : undefined;
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
