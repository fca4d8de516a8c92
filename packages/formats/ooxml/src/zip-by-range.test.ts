import JSZip from 'jszip';
import { listZipEntriesByRange, type RandomAccessSource } from './zip-by-range.js';

/** A source over bytes that records how much was read. */
function source(bytes: Uint8Array): RandomAccessSource & { bytesRead: number } {
  const s = {
    size: bytes.byteLength, bytesRead: 0,
    read: async (start: number, end: number) => { const b = bytes.slice(start, Math.min(end, bytes.byteLength)); s.bytesRead += b.byteLength; return b; },
  };
  return s;
}

describe('listZipEntriesByRange', () => {
  it('lists the entries from the central directory, reading only the tail of the file', async () => {
    const zip = new JSZip();
    zip.file('[Content_Types].xml', '<Types/>');
    for (let i = 1; i <= 3; i++) zip.file(`ppt/slides/slide${i}.xml`, '<s/>');
    zip.file('ppt/media/filler.bin', new Uint8Array(512 * 1024).map((_, i) => (i * 7919) % 251), { compression: 'STORE' });
    const bytes = await zip.generateAsync({ type: 'uint8array' });
    const src = source(bytes);
    expect((await listZipEntriesByRange(src)).sort()).toEqual(Object.keys(zip.files).sort());
    expect(src.bytesRead).toBeLessThan(bytes.byteLength / 2);
  });

  it('reports a zip without its end of central directory as FILE_003', async () => {
    const zip = new JSZip();
    zip.file('a.txt', 'x');
    const bytes = await zip.generateAsync({ type: 'uint8array' });
    await expect(listZipEntriesByRange(source(bytes.slice(0, bytes.length - 30)))).rejects.toMatchObject({ code: 'FILE_003' });
  });
});
