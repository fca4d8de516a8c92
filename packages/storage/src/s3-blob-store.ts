import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream';
import {
  CreateBucketCommand, DeleteObjectCommand, DeleteObjectsCommand, GetObjectCommand, HeadBucketCommand,
  HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { QuireError, isQuireError } from '@quire/core';
import type { BlobInfo, BlobStore } from './blob-store.js';
import { assertValidKey, assertValidPrefix } from './blob-key.js';

export interface S3BlobStoreOptions {
  /** Omit for AWS; set for MinIO, s3rver, R2 and friends. */
  endpoint?: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Path-style URLs (`endpoint/bucket/key`): required for MinIO/s3rver and any 'localhost' endpoint. */
  forcePathStyle: boolean;
  /** SDK attempts per request (default 3). */
  maxAttempts?: number;
  /** TCP connect timeout (default 5 s), so an unreachable store fails with STORAGE_003 promptly. */
  connectionTimeoutMs?: number;
  /** Multipart part size for streamed puts (default and S3 minimum: 5 MiB). */
  partSizeBytes?: number;
}

const DELETE_BATCH = 1000; // the DeleteObjects maximum

/**
 * The fleet blob store on S3 or any S3-compatible server. Streams go through lib-storage's Upload
 * (multipart above one part, aborted on failure, so a failed stream leaves no object).
 */
export class S3BlobStore implements BlobStore {
  readonly kind = 's3' as const;
  readonly bucket: string;
  private readonly client: S3Client;
  private readonly partSize: number;

  constructor(opts: S3BlobStoreOptions) {
    this.bucket = opts.bucket;
    this.partSize = Math.max(opts.partSizeBytes ?? 5 * 1024 * 1024, 5 * 1024 * 1024);
    this.client = new S3Client({
      ...(opts.endpoint ? { endpoint: opts.endpoint } : {}),
      region: opts.region,
      forcePathStyle: opts.forcePathStyle,
      credentials: { accessKeyId: opts.accessKeyId, secretAccessKey: opts.secretAccessKey },
      maxAttempts: opts.maxAttempts ?? 3,
      requestHandler: { connectionTimeout: opts.connectionTimeoutMs ?? 5000 },
      // REQUIRED: with the SDK's default (WHEN_SUPPORTED) streamed bodies are sent aws-chunked with a
      // trailing checksum, which s3rver (and some older S3 clones) store verbatim: silent corruption.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  /** Creates the bucket when it does not exist (dev, tests, compose start-up). */
  async ensureBucket(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
      return;
    } catch (e) {
      if (httpStatus(e) !== 404 && errName(e) !== 'NotFound' && errName(e) !== 'NoSuchBucket') throw mapS3Error(e);
    }
    try {
      await this.client.send(new CreateBucketCommand({ Bucket: this.bucket }));
    } catch (e) {
      if (errName(e) === 'BucketAlreadyOwnedByYou' || errName(e) === 'BucketAlreadyExists') return;
      throw mapS3Error(e);
    }
  }

  async put(key: string, body: Uint8Array | Readable, opts?: { contentType?: string }): Promise<BlobInfo> {
    assertValidKey(key);
    const contentType = opts?.contentType;
    // isView, not instanceof: bytes made in another realm (a vm context, a worker) are still bytes.
    if (ArrayBuffer.isView(body)) {
      await this.call((c) => c.send(new PutObjectCommand({
        Bucket: this.bucket, Key: key, Body: body, ContentLength: body.byteLength,
        ...(contentType ? { ContentType: contentType } : {}),
      })), key);
      return { size: body.byteLength, ...(contentType ? { contentType } : {}) };
    }
    return this.putStream(key, body, contentType);
  }

  private async putStream(key: string, body: Readable, contentType: string | undefined): Promise<BlobInfo> {
    let size = 0;
    let sourceError: unknown;
    body.once('error', (e) => { sourceError = e; });
    const counter = new Transform({ transform(chunk: Buffer, _enc, cb) { size += chunk.length; cb(null, chunk); } });
    pipeline(body, counter, () => undefined); // errors reach Upload through `counter`
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: key, Body: counter, ...(contentType ? { ContentType: contentType } : {}) },
      partSize: this.partSize,
      queueSize: 2,
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (e) {
      if (sourceError !== undefined) throw sourceError;
      throw isQuireError(e) ? e : mapS3Error(e, key, 'STORAGE_001');
    }
    return { size, ...(contentType ? { contentType } : {}) };
  }

  async get(key: string): Promise<Readable> {
    assertValidKey(key);
    const out = await this.call((c) => c.send(new GetObjectCommand({ Bucket: this.bucket, Key: key })), key);
    return out.Body as Readable; // the Node runtime's body is an IncomingMessage (a Readable)
  }

  async getBytes(key: string): Promise<Uint8Array> {
    assertValidKey(key);
    const out = await this.call((c) => c.send(new GetObjectCommand({ Bucket: this.bucket, Key: key })), key);
    try {
      return await out.Body!.transformToByteArray();
    } catch (e) {
      throw mapS3Error(e, key);
    }
  }

  async getRange(key: string, start: number, end: number): Promise<Uint8Array> {
    assertValidKey(key);
    if (end <= start) return new Uint8Array(0);
    let out;
    try {
      out = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key, Range: `bytes=${Math.max(0, start)}-${end - 1}` }));
    } catch (e) {
      if (httpStatus(e) === 416) return new Uint8Array(0); // the range starts past the end
      throw mapS3Error(e, key);
    }
    try {
      return await out.Body!.transformToByteArray();
    } catch (e) {
      throw mapS3Error(e, key);
    }
  }

  async head(key: string): Promise<BlobInfo | null> {
    assertValidKey(key);
    try {
      const out = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { size: out.ContentLength ?? 0, ...(out.ContentType ? { contentType: out.ContentType } : {}) };
    } catch (e) {
      if (httpStatus(e) === 404 || errName(e) === 'NotFound' || errName(e) === 'NoSuchKey') return null;
      throw mapS3Error(e, key);
    }
  }

  async delete(key: string): Promise<void> {
    assertValidKey(key);
    await this.call((c) => c.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key })), key);
  }

  async deletePrefix(prefix: string): Promise<number> {
    assertValidPrefix(prefix);
    let deleted = 0;
    let startAfter: string | undefined;
    // StartAfter (the last key of the previous page) rather than the opaque ContinuationToken: the same
    // walk, and no server-side token state (s3rver 3.7 mints tokens with DES; see s3rver-test-server.ts).
    for (;;) {
      const page = await this.call((c) => c.send(new ListObjectsV2Command({
        Bucket: this.bucket, Prefix: prefix, MaxKeys: DELETE_BATCH, ...(startAfter ? { StartAfter: startAfter } : {}),
      })), prefix);
      const keys = (page.Contents ?? []).map((o) => o.Key).filter((k): k is string => !!k);
      if (keys.length === 0) break;
      deleted += await this.deleteBatch(keys);
      if (!page.IsTruncated) break;
      startAfter = keys[keys.length - 1];
    }
    return deleted;
  }

  private async deleteBatch(keys: string[]): Promise<number> {
    const out = await this.call((c) => c.send(new DeleteObjectsCommand({
      Bucket: this.bucket, Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: true },
    })), keys[0]);
    const errors = out.Errors ?? [];
    if (errors.length > 0) {
      throw new QuireError('STORAGE_001', 'Some blobs could not be deleted', {
        failed: errors.length, first: errors[0].Key, code: errors[0].Code,
      });
    }
    return keys.length;
  }

  async ping(): Promise<void> {
    await this.call((c) => c.send(new HeadBucketCommand({ Bucket: this.bucket })), '');
  }

  async close(): Promise<void> {
    this.client.destroy();
  }

  // One place where SDK errors become spec codes.
  private async call<T>(fn: (client: S3Client) => Promise<T>, key: string): Promise<T> {
    try {
      return await fn(this.client);
    } catch (e) {
      throw mapS3Error(e, key);
    }
  }
}

const errName = (e: unknown) => (e as { name?: string })?.name;
const httpStatus = (e: unknown) => (e as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode;

const CONNECTION_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE',
]);

/** NoSuchKey → STORAGE_002; unreachable or 5xx → STORAGE_003; anything else → `fallback`. */
export function mapS3Error(e: unknown, key?: string, fallback: 'STORAGE_001' | 'STORAGE_003' = 'STORAGE_003'): QuireError {
  if (isQuireError(e)) return e;
  const name = errName(e);
  const status = httpStatus(e);
  const code = (e as { code?: string })?.code;
  const cause = e instanceof Error ? e.message : String(e);
  const details = { ...(key ? { key } : {}), cause };
  if (name === 'NoSuchKey' || (status === 404 && name !== 'NoSuchBucket')) {
    return new QuireError('STORAGE_002', 'Blob not found', details);
  }
  if ((code && CONNECTION_CODES.has(code)) || name === 'TimeoutError' || status === undefined || status >= 500) {
    return new QuireError('STORAGE_003', 'Blob storage unavailable', details);
  }
  return new QuireError(fallback, fallback === 'STORAGE_001' ? 'Failed to store blob' : 'Blob storage failed', details);
}
