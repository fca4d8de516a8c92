import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';

/**
 * A document to send: a file path, bytes, a Blob, a Node Readable stream, or a URL the service downloads
 * itself (`file_url`; pass a URL object or `{ url }` — a plain string is always a path).
 */
export type FileInput =
  | string
  | Uint8Array
  | ArrayBuffer
  | Blob
  | Readable
  | URL
  | { url: string }
  | { data: Uint8Array | Blob | Readable; filename?: string; contentType?: string };

export type PreparedInput = { kind: 'url'; url: string } | { kind: 'file'; blob: Blob; filename: string };

const EXT_TYPES: Record<string, string> = {
  '.pdf': 'application/pdf', '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.tif': 'image/tiff', '.tiff': 'image/tiff',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.pptx': 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  '.html': 'text/html', '.htm': 'text/html',
};

export const contentTypeFor = (filename: string): string => EXT_TYPES[path.extname(filename).toLowerCase()] ?? 'application/octet-stream';

/**
 * Turns any FileInput into what a multipart body needs. A path becomes a file-backed Blob (fs.openAsBlob), so
 * its bytes are read while the request is sent, not first; a stream is collected once, so a retried request can
 * send it again (for documents too large for memory, give a path or a URL).
 */
export async function prepareInput(input: FileInput, filename?: string): Promise<PreparedInput> {
  if (input instanceof URL) return { kind: 'url', url: input.href };
  if (typeof input === 'string') {
    const stat = await fs.promises.stat(input);
    if (!stat.isFile()) throw new TypeError(`${input} is not a file`);
    const name = filename ?? path.basename(input);
    return { kind: 'file', blob: await fs.openAsBlob(input, { type: contentTypeFor(name) }), filename: name };
  }
  if (isUrlObject(input)) return { kind: 'url', url: input.url };
  if (isNamedData(input)) {
    const inner = await prepareInput(input.data, input.filename ?? filename);
    if (inner.kind === 'file' && input.contentType) return { ...inner, blob: new Blob([inner.blob], { type: input.contentType }) };
    return inner;
  }
  const name = filename ?? 'document';
  const type = contentTypeFor(name);
  if (input instanceof Blob) return { kind: 'file', blob: input.type ? input : new Blob([input], { type }), filename: name };
  if (input instanceof Uint8Array) return { kind: 'file', blob: new Blob([input], { type }), filename: name };
  if (input instanceof ArrayBuffer) return { kind: 'file', blob: new Blob([input], { type }), filename: name };
  if (input instanceof Readable) {
    const chunks: Buffer[] = [];
    for await (const chunk of input) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk as Buffer);
    return { kind: 'file', blob: new Blob(chunks, { type }), filename: name };
  }
  throw new TypeError('Unsupported file input: give a path, Buffer/Uint8Array, Blob, Readable, URL or { url }');
}

const isUrlObject = (v: unknown): v is { url: string } => typeof v === 'object' && v !== null && typeof (v as { url?: unknown }).url === 'string';
const isNamedData = (v: unknown): v is { data: Uint8Array | Blob | Readable; filename?: string; contentType?: string } =>
  typeof v === 'object' && v !== null && 'data' in v && !(v instanceof Readable);

/** Multipart body: the document (or file_url) and the options, objects as JSON strings, undefined left out. */
export function multipartBody(input: PreparedInput | undefined, fields: Record<string, unknown>, fileField = 'file'): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) {
    if (v === undefined) continue;
    form.append(k, typeof v === 'object' ? JSON.stringify(v) : String(v));
  }
  if (input?.kind === 'url') form.append('file_url', input.url);
  else if (input) form.append(fileField, input.blob, input.filename);
  return form;
}
