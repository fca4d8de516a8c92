import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { QuireError, isQuireError } from '@quire/core';
import type { BlobInfo, BlobStore } from './blob-store.js';
import { assertValidKey, assertValidPrefix } from './blob-key.js';

export interface FsBlobStoreOptions {
  /** Root directory; created when missing. Objects live under `<root>/blobs`. */
  root: string;
}

interface Sidecar {
  contentType?: string;
}

/**
 * The embedded blob store. Layout under the root:
 *   blobs/<key>        the bytes
 *   meta/<key>.json    { contentType } (a sidecar: portable, no xattrs)
 *   tmp/<uuid>         uploads in progress; renamed into blobs/ only once complete
 * tmp/ and blobs/ share a filesystem, so the rename is atomic: readers see the old object or the
 * whole new one, and a failed stream leaves nothing behind. Limitation (unlike S3): a key cannot also
 * be a "directory" of other keys (`a` and `a/b` cannot both exist); put() throws STORAGE_001 then.
 */
export class FsBlobStore implements BlobStore {
  readonly kind = 'fs' as const;
  private readonly blobs: string;
  private readonly meta: string;
  private readonly tmp: string;
  private ready?: Promise<void>;

  constructor(opts: FsBlobStoreOptions) {
    const root = path.resolve(opts.root);
    this.blobs = path.join(root, 'blobs');
    this.meta = path.join(root, 'meta');
    this.tmp = path.join(root, 'tmp');
  }

  private init(): Promise<void> {
    this.ready ??= Promise.all([this.blobs, this.meta, this.tmp].map((d) => fsp.mkdir(d, { recursive: true })))
      .then(() => undefined);
    return this.ready;
  }

  private blobPath(key: string): string {
    assertValidKey(key);
    const p = path.join(this.blobs, ...key.split('/'));
    // Belt and braces: the key rules already make escaping impossible.
    if (!p.startsWith(this.blobs + path.sep)) throw new QuireError('STORAGE_001', 'Invalid blob key', { key });
    return p;
  }

  private metaPath(key: string): string {
    return path.join(this.meta, ...key.split('/')) + '.json';
  }

  async put(key: string, body: Uint8Array | Readable, opts?: { contentType?: string }): Promise<BlobInfo> {
    const target = this.blobPath(key);
    await this.init();
    const tmpFile = path.join(this.tmp, randomUUID());
    let size = 0;
    let sourceError: unknown;
    try {
      // isView, not instanceof: bytes made in another realm (a vm context, a worker) are still bytes.
      if (ArrayBuffer.isView(body)) {
        await fsp.writeFile(tmpFile, body);
        size = body.byteLength;
      } else {
        body.once('error', (e) => { sourceError = e; });
        const counter = new Transform({
          transform(chunk: Buffer, _enc, cb) { size += chunk.length; cb(null, chunk); },
        });
        // the file is opened (created) before any byte flows: a write stream opens its file
        // asynchronously, and a source that fails at once made the cleanup below run before that open,
        // which then left an empty temp file behind
        const file = await fsp.open(tmpFile, 'w');
        await pipeline(body, counter, file.createWriteStream());
      }
      await this.writeSidecar(key, { contentType: opts?.contentType });
      await fsp.mkdir(path.dirname(target), { recursive: true });
      await fsp.rename(tmpFile, target);
    } catch (e) {
      await fsp.rm(tmpFile, { force: true }).catch(() => undefined);
      // The caller's stream failing (an aborted upload, a download timeout) keeps its own error.
      if (sourceError !== undefined) throw sourceError;
      if (isQuireError(e)) throw e;
      throw new QuireError('STORAGE_001', 'Failed to store blob', { key, cause: errMessage(e) });
    }
    return { size, ...(opts?.contentType ? { contentType: opts.contentType } : {}) };
  }

  private async writeSidecar(key: string, sidecar: Sidecar): Promise<void> {
    const file = this.metaPath(key);
    if (!sidecar.contentType) {
      await fsp.rm(file, { force: true });
      return;
    }
    await fsp.mkdir(path.dirname(file), { recursive: true });
    const tmpFile = path.join(this.tmp, randomUUID());
    await fsp.writeFile(tmpFile, JSON.stringify(sidecar));
    await fsp.rename(tmpFile, file);
  }

  async get(key: string): Promise<Readable> {
    const file = this.blobPath(key);
    // Open first so a missing key fails here, not later on the stream.
    const handle = await fsp.open(file, 'r').catch((e) => { throw mapFsError(e, key); });
    if (!(await handle.stat()).isFile()) {
      await handle.close();
      throw new QuireError('STORAGE_002', 'Blob not found', { key });
    }
    return handle.createReadStream();
  }

  async getBytes(key: string): Promise<Uint8Array> {
    const file = this.blobPath(key);
    const buf = await fsp.readFile(file).catch((e) => { throw mapFsError(e, key); });
    return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
  }

  async getRange(key: string, start: number, end: number): Promise<Uint8Array> {
    const file = this.blobPath(key);
    const fh = await fsp.open(file, 'r').catch((e) => { throw mapFsError(e, key); });
    try {
      const size = (await fh.stat()).size;
      const from = Math.max(0, Math.min(start, size));
      const len = Math.max(0, Math.min(end, size) - from);
      const buf = Buffer.alloc(len);
      let read = 0;
      while (read < len) {
        const { bytesRead } = await fh.read(buf, read, len - read, from + read);
        if (bytesRead === 0) break;
        read += bytesRead;
      }
      return new Uint8Array(buf.buffer, buf.byteOffset, read);
    } finally {
      await fh.close();
    }
  }

  async head(key: string): Promise<BlobInfo | null> {
    const file = this.blobPath(key);
    const stat = await fsp.stat(file).catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT' || e.code === 'ENOTDIR') return null;
      throw mapFsError(e, key);
    });
    if (!stat || !stat.isFile()) return null;
    const sidecar = await this.readSidecar(key);
    return { size: stat.size, ...(sidecar.contentType ? { contentType: sidecar.contentType } : {}) };
  }

  private async readSidecar(key: string): Promise<Sidecar> {
    try {
      return JSON.parse(await fsp.readFile(this.metaPath(key), 'utf8')) as Sidecar;
    } catch {
      return {};
    }
  }

  async delete(key: string): Promise<void> {
    const file = this.blobPath(key);
    await fsp.rm(file, { force: true });
    await fsp.rm(this.metaPath(key), { force: true });
    await this.pruneEmptyDirs(path.dirname(file), this.blobs);
    await this.pruneEmptyDirs(path.dirname(this.metaPath(key)), this.meta);
  }

  async deletePrefix(prefix: string): Promise<number> {
    assertValidPrefix(prefix);
    const slash = prefix.lastIndexOf('/');
    const dirKey = slash >= 0 ? prefix.slice(0, slash) : '';
    const keys: string[] = [];
    for await (const key of this.walk(dirKey)) if (key.startsWith(prefix)) keys.push(key);
    for (const key of keys) await this.delete(key);
    return keys.length;
  }

  /** Keys of every object under the directory `dirKey` ('' = all). */
  private async *walk(dirKey: string): AsyncGenerator<string> {
    const dir = dirKey ? path.join(this.blobs, ...dirKey.split('/')) : this.blobs;
    let entries: fs.Dirent[];
    try {
      entries = await fsp.readdir(dir, { withFileTypes: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT' || (e as NodeJS.ErrnoException).code === 'ENOTDIR') return;
      throw mapFsError(e, dirKey);
    }
    for (const entry of entries) {
      const key = dirKey ? `${dirKey}/${entry.name}` : entry.name;
      if (entry.isDirectory()) yield* this.walk(key);
      else if (entry.isFile()) yield key;
    }
  }

  /** Removes now-empty directories from `dir` up to (not including) `stop`. */
  private async pruneEmptyDirs(dir: string, stop: string): Promise<void> {
    while (dir.startsWith(stop + path.sep)) {
      try {
        await fsp.rmdir(dir);
      } catch {
        return; // not empty (or already gone): stop climbing
      }
      dir = path.dirname(dir);
    }
  }

  async ping(): Promise<void> {
    await this.init();
    await fsp.access(this.blobs, fs.constants.R_OK | fs.constants.W_OK).catch((e) => {
      throw new QuireError('STORAGE_003', 'Blob directory not accessible', { cause: errMessage(e) });
    });
  }

  async close(): Promise<void> {
    // Nothing to release: every operation opens and closes its own handles.
  }
}

const errMessage = (e: unknown) => (e instanceof Error ? e.message : String(e));

function mapFsError(e: unknown, key: string): QuireError {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR') {
    return new QuireError('STORAGE_002', 'Blob not found', { key });
  }
  return new QuireError('STORAGE_003', 'Blob storage failed', { key, cause: errMessage(e) });
}
