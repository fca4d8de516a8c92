import type { Readable } from 'node:stream';

/**
 * Where bytes live: uploads, staged source copies, large results, figure crops, form PDFs.
 * Adapters: fs-blob-store (embedded) and s3-blob-store (fleet); both pass blob-store.conformance.ts.
 * Keys are '/'-separated paths chosen by the caller, always prefixed by the organization id.
 */
export interface BlobInfo {
  size: number;
  contentType?: string;
}

export interface BlobStore {
  readonly kind: 'fs' | 's3';
  /** Streams `body` to `key`; resolves with the stored size. A failed stream leaves no partial object. */
  put(key: string, body: Uint8Array | Readable, opts?: { contentType?: string }): Promise<BlobInfo>;
  /** Throws QuireError STORAGE_002 when the key does not exist. */
  get(key: string): Promise<Readable>;
  getBytes(key: string): Promise<Uint8Array>;
  /** Bytes [start, end) — clipped to the object's size; random access without reading the whole blob. */
  getRange(key: string, start: number, end: number): Promise<Uint8Array>;
  head(key: string): Promise<BlobInfo | null>;
  delete(key: string): Promise<void>;
  /** Deletes every key under `prefix`; returns how many were removed. */
  deletePrefix(prefix: string): Promise<number>;
  /** Throws when the store is unreachable (readiness probe). */
  ping(): Promise<void>;
  close(): Promise<void>;
}
