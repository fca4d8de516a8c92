import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { BlobStore } from '../src/blob-store.js';

/**
 * The behaviour every BlobStore adapter must share. Run by each adapter's test file with a factory
 * that returns a fresh, empty store; the suite closes what it makes.
 */
export interface BlobStoreConformanceOptions {
  /** Also assert that traversal-looking keys are refused (every adapter validates keys the same way). */
  pathTraversal?: boolean;
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.from(c));
  return Buffer.concat(chunks);
}

/** A stream of `total` pseudo-random bytes in uneven chunks, with the same bytes returned for checking. */
function chunkedStream(total: number): { stream: Readable; bytes: Buffer } {
  const bytes = randomBytes(total);
  const sizes = [65_536, 1, 300_001, 4_096, 1_048_577];
  const chunks: Buffer[] = [];
  for (let off = 0, i = 0; off < total; i++) {
    const n = Math.min(sizes[i % sizes.length], total - off);
    chunks.push(bytes.subarray(off, off + n));
    off += n;
  }
  return { stream: Readable.from(chunks), bytes };
}

/** Emits some bytes, then fails. */
function failingStream(afterBytes: number): Readable {
  let sent = false;
  return new Readable({
    read() {
      if (!sent) {
        sent = true;
        this.push(randomBytes(afterBytes));
      } else {
        setImmediate(() => this.destroy(new Error('source exploded')));
      }
    },
  });
}

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

export function describeBlobStoreConformance(
  name: string,
  makeStore: () => Promise<BlobStore>,
  opts: BlobStoreConformanceOptions = {},
): void {
  describe(`BlobStore conformance: ${name}`, () => {
    let store: BlobStore;
    beforeEach(async () => { store = await makeStore(); });
    afterEach(async () => { await store.close(); });

    it('puts and gets bytes with their content type', async () => {
      const data = new TextEncoder().encode('hello, quire');
      const info = await store.put('org1/jobs/a.txt', data, { contentType: 'text/plain' });
      expect(info.size).toBe(data.byteLength);
      expect(Buffer.from(await store.getBytes('org1/jobs/a.txt')).toString()).toBe('hello, quire');
      expect(await store.head('org1/jobs/a.txt')).toEqual({ size: data.byteLength, contentType: 'text/plain' });
      expect((await readAll(await store.get('org1/jobs/a.txt'))).toString()).toBe('hello, quire');
    });

    it('round-trips a 12 MB stream byte for byte', async () => {
      const { stream, bytes } = chunkedStream(12 * 1024 * 1024 + 12_345);
      const info = await store.put('org1/big/blob.bin', stream, { contentType: 'application/octet-stream' });
      expect(info.size).toBe(bytes.length);
      expect((await store.head('org1/big/blob.bin'))?.size).toBe(bytes.length);
      const back = await readAll(await store.get('org1/big/blob.bin'));
      expect(back.length).toBe(bytes.length);
      expect(sha(back)).toBe(sha(bytes));
    });

    it('overwrites an existing key', async () => {
      await store.put('org1/x', Buffer.from('first version'), { contentType: 'text/plain' });
      await store.put('org1/x', Readable.from([Buffer.from('second')]));
      expect(Buffer.from(await store.getBytes('org1/x')).toString()).toBe('second');
      expect((await store.head('org1/x'))?.size).toBe(6);
    });

    it('reads byte ranges, clipped to the object', async () => {
      await store.put('org1/r/range.bin', Buffer.from('0123456789'));
      expect(Buffer.from(await store.getRange('org1/r/range.bin', 2, 5)).toString()).toBe('234');
      expect(Buffer.from(await store.getRange('org1/r/range.bin', 7, 100)).toString()).toBe('789');
      expect((await store.getRange('org1/r/range.bin', 20, 30)).byteLength).toBe(0);
      await expect(store.getRange('org1/nope', 0, 4)).rejects.toMatchObject({ code: 'STORAGE_002' });
    });

    it('reports a missing key as STORAGE_002 and head() as null', async () => {
      await expect(store.get('org1/nope')).rejects.toMatchObject({ code: 'STORAGE_002' });
      await expect(store.getBytes('org1/nope')).rejects.toMatchObject({ code: 'STORAGE_002' });
      expect(await store.head('org1/nope')).toBeNull();
    });

    it('deletes a key, and deleting a missing key is not an error', async () => {
      await store.put('org1/d/1', Buffer.from('x'));
      await store.delete('org1/d/1');
      expect(await store.head('org1/d/1')).toBeNull();
      await expect(store.getBytes('org1/d/1')).rejects.toMatchObject({ code: 'STORAGE_002' });
      await expect(store.delete('org1/d/1')).resolves.toBeUndefined();
    });

    it('deletePrefix removes exactly the keys under the prefix and counts them', async () => {
      const keys = ['org1/job-1/a', 'org1/job-1/b/c', 'org1/job-1/b/d', 'org1/job-10/a', 'org1/job-2/a', 'org2/job-1/a'];
      for (const k of keys) await store.put(k, Buffer.from(k));
      expect(await store.deletePrefix('org1/job-1/')).toBe(3);
      expect(await store.head('org1/job-1/a')).toBeNull();
      expect(await store.head('org1/job-1/b/d')).toBeNull();
      for (const k of ['org1/job-10/a', 'org1/job-2/a', 'org2/job-1/a']) expect(await store.head(k)).not.toBeNull();
      expect(await store.deletePrefix('org1/job-')).toBe(2); // a mid-segment prefix, like S3
      expect(await store.deletePrefix('org1/')).toBe(0);
      expect(await store.head('org2/job-1/a')).not.toBeNull();
    });

    it('a failing input stream rejects with its error and leaves no object', async () => {
      await expect(store.put('org1/broken/small', failingStream(1000))).rejects.toThrow('source exploded');
      expect(await store.head('org1/broken/small')).toBeNull();
      // past one multipart part, so an S3 adapter must abort the multipart upload
      await expect(store.put('org1/broken/large', failingStream(6 * 1024 * 1024))).rejects.toThrow('source exploded');
      expect(await store.head('org1/broken/large')).toBeNull();
      expect(await store.deletePrefix('org1/broken/')).toBe(0);
    });

    it('a failed overwrite keeps the previous object intact', async () => {
      await store.put('org1/keep', Buffer.from('original'));
      await expect(store.put('org1/keep', failingStream(10))).rejects.toThrow('source exploded');
      expect(Buffer.from(await store.getBytes('org1/keep')).toString()).toBe('original');
    });

    it('ping() succeeds on a working store', async () => {
      await expect(store.ping()).resolves.toBeUndefined();
    });

    if (opts.pathTraversal) {
      it.each([
        '../escape', 'org1/../../escape', 'org1/./a', '/etc/passwd', 'org1\\..\\x', 'org1/a\0b', '', 'org1//a', 'org1/a/',
        'C:/windows',
      ])('refuses the key %j with STORAGE_001', async (key) => {
        await expect(store.put(key, Buffer.from('x'))).rejects.toMatchObject({ code: 'STORAGE_001' });
        await expect(store.get(key)).rejects.toMatchObject({ code: 'STORAGE_001' });
        await expect(store.head(key)).rejects.toMatchObject({ code: 'STORAGE_001' });
        await expect(store.delete(key)).rejects.toMatchObject({ code: 'STORAGE_001' });
      });

      it.each(['', '../', 'org1/../', '/abs'])('refuses the prefix %j', async (prefix) => {
        await expect(store.deletePrefix(prefix)).rejects.toMatchObject({ code: 'STORAGE_001' });
      });
    }
  });
}
