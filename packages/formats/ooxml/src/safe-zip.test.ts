import JSZip from 'jszip';
import { DEFAULT_LIMITS, QuireError } from '@quire/core';
import { openSafeZip } from './safe-zip.js';

/** Rewrites the declared uncompressed size of `name` (central directory and local header). */
function declare(zip: Uint8Array, name: string, size: number): Uint8Array {
  const b = Buffer.from(zip);
  const end = b.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  let at = b.readUInt32LE(end + 16);
  for (let n = b.readUInt16LE(end + 10); n > 0; n--) {
    const nameLen = b.readUInt16LE(at + 28);
    if (b.toString('utf8', at + 46, at + 46 + nameLen) === name) {
      b.writeUInt32LE(size, at + 24);
      b.writeUInt32LE(size, b.readUInt32LE(at + 42) + 22);
    }
    at += 46 + nameLen + b.readUInt16LE(at + 30) + b.readUInt16LE(at + 32);
  }
  return b;
}

async function zipOf(files: Record<string, string>): Promise<Uint8Array> {
  const z = new JSZip();
  for (const [name, text] of Object.entries(files)) z.file(name, text);
  return z.generateAsync({ type: 'uint8array', compression: 'DEFLATE' });
}

describe('openSafeZip: entries are counted as they inflate', () => {
  const big = `<a>${' '.repeat(4 * 1024 * 1024)}</a>`;

  test('an honest archive reads as text, bytes and stream', async () => {
    const zip = await openSafeZip(await zipOf({ 'a.xml': '<a>héllo</a>', 'b.bin': 'xyz' }), DEFAULT_LIMITS);
    expect(await zip.text('a.xml')).toBe('<a>héllo</a>');
    expect(Buffer.from((await zip.bytes('b.bin'))!).toString()).toBe('xyz');
    const chunks: Buffer[] = [];
    for await (const c of zip.stream('a.xml') as AsyncIterable<Buffer>) chunks.push(c);
    expect(Buffer.concat(chunks).toString()).toBe('<a>héllo</a>');
  });

  test('an entry whose header declares less than it inflates to fails with FILE_003 at the declared size', async () => {
    const zip = await openSafeZip(declare(await zipOf({ 'doc.xml': big }), 'doc.xml', 100_000), DEFAULT_LIMITS);
    const e = await zip.text('doc.xml').then(() => undefined, (err: unknown) => err);
    expect(e).toBeInstanceOf(QuireError);
    expect(e).toMatchObject({ code: 'FILE_003', details: { reason: 'zip_size_limit' } });
    expect((e as Error).message).toContain('past the 100000 bytes its header declares');
    const streamed = (async () => { for await (const _ of zip.stream('doc.xml') as AsyncIterable<Buffer>); })();
    await expect(streamed).rejects.toMatchObject({ code: 'FILE_003' });
  });

  test('declared sizes over the limits are refused when the archive is opened', async () => {
    const bytes = await zipOf({ 'doc.xml': big });
    const roomy = await openSafeZip(bytes, { ...DEFAULT_LIMITS, maxCompressionRatio: 1e9 });
    await expect(roomy.bytes('doc.xml')).resolves.toHaveLength(big.length);
    await expect(openSafeZip(bytes, DEFAULT_LIMITS)).rejects.toMatchObject({ code: 'FILE_003', details: { reason: 'zip_ratio_limit' } });
    await expect(openSafeZip(bytes, { ...DEFAULT_LIMITS, maxCompressionRatio: 1e9, maxUncompressedBytes: 1024 * 1024 })).rejects.toMatchObject({ code: 'FILE_003', details: { reason: 'zip_size_limit' } });
  });
});
