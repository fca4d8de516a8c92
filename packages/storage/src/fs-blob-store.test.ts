import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { FsBlobStore } from './fs-blob-store.js';
import { describeBlobStoreConformance } from '../test/blob-store.conformance.js';

const dirs: string[] = [];
const tempRoot = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-fsblob-'));
  dirs.push(d);
  return d;
};
afterAll(() => { for (const d of dirs) fs.rmSync(d, { recursive: true, force: true }); });

describeBlobStoreConformance('fs', async () => new FsBlobStore({ root: path.join(tempRoot(), 'store') }), { pathTraversal: true });

describe('FsBlobStore specifics', () => {
  it('never writes outside its root for a traversal key', async () => {
    const outer = tempRoot();
    const store = new FsBlobStore({ root: path.join(outer, 'store') });
    await expect(store.put('../../escape', Buffer.from('x'))).rejects.toMatchObject({ code: 'STORAGE_001' });
    expect(fs.existsSync(path.join(outer, 'escape'))).toBe(false);
    expect(fs.existsSync(path.join(outer, 'store', 'escape'))).toBe(false);
  });

  it('leaves no temp file behind after a failed stream', async () => {
    const root = tempRoot();
    const store = new FsBlobStore({ root });
    const failing = new Readable({ read() { this.destroy(new Error('boom')); } });
    await expect(store.put('org/a', failing)).rejects.toThrow('boom');
    expect(fs.readdirSync(path.join(root, 'tmp'))).toEqual([]);
    expect(fs.readdirSync(path.join(root, 'blobs'))).toEqual([]);
  });

  it('prunes empty directories on delete', async () => {
    const root = tempRoot();
    const store = new FsBlobStore({ root });
    await store.put('org/job/deep/file', Buffer.from('x'), { contentType: 'text/plain' });
    await store.deletePrefix('org/');
    expect(fs.readdirSync(path.join(root, 'blobs'))).toEqual([]);
    expect(fs.readdirSync(path.join(root, 'meta'))).toEqual([]);
  });

  it('refuses a key that is already a directory of other keys', async () => {
    const store = new FsBlobStore({ root: tempRoot() });
    await store.put('org/a/b', Buffer.from('x'));
    await expect(store.put('org/a', Buffer.from('y'))).rejects.toMatchObject({ code: 'STORAGE_001' });
    expect(await store.head('org/a')).toBeNull();
    await expect(store.get('org/a')).rejects.toMatchObject({ code: 'STORAGE_002' });
  });
});
