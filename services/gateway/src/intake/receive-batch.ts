import { randomUUID } from 'node:crypto';
import busboy from 'busboy';
import type { Request } from 'express';
import { PassThrough } from 'node:stream';
import { QuireError } from '@quire/core';
import type { GatewayDeps } from '../deps.js';
import { closeAfterAnswer, download, setField, tooLarge, type ReceivedRequest } from './receive-document.js';

const MAX_BATCH_INPUTS = 50;
const FILE_FIELDS = new Set(['file', 'files', 'files[]']);

export interface BatchInput extends NonNullable<ReceivedRequest['document']> {
  /** The child job id; the document is staged under `<org>/<childId>/source`. */
  childId: string;
}

/**
 * Batch intake: several multipart files (`file`/`files`, each streamed to the blob store and held to
 * the upload limit) and/or `file_urls` (JSON array or repeated field), each downloaded through the SSRF
 * guard. On any failure every staged input is removed.
 */
export async function receiveBatch(req: Request, deps: GatewayDeps, orgId: string): Promise<{ fields: Record<string, unknown>; inputs: BatchInput[] }> {
  const multipart = (req.headers['content-type'] ?? '').toLowerCase().startsWith('multipart/form-data');
  const { fields, inputs } = multipart ? await receiveFiles(req, deps, orgId) : { fields: { ...((req.body ?? {}) as Record<string, unknown>) }, inputs: [] as BatchInput[] };
  try {
    const raw = fields.file_urls;
    delete fields.file_urls;
    const urls = raw === undefined || raw === '' ? [] : typeof raw === 'string' ? parseUrlList(raw) : raw;
    if (!Array.isArray(urls) || urls.some((u) => typeof u !== 'string')) throw new QuireError('REQ_003', 'file_urls must be an array of URLs');
    if (inputs.length + urls.length > MAX_BATCH_INPUTS) throw new QuireError('REQ_003', `A batch takes at most ${MAX_BATCH_INPUTS} documents`, { max: MAX_BATCH_INPUTS });
    for (const url of urls as string[]) {
      const childId = randomUUID();
      inputs.push({ childId, ...(await download(url, deps, `${orgId}/${childId}/`)) });
    }
    if (!inputs.length) throw new QuireError('REQ_001', 'No files or URLs provided: send files (multipart, field "files") or file_urls');
    return { fields, inputs };
  } catch (e) {
    await Promise.all(inputs.map((i) => deps.blobs.deletePrefix(`${orgId}/${i.childId}/`).catch(() => undefined)));
    throw e;
  }
}

const parseUrlList = (s: string): unknown => {
  const t = s.trim();
  if (t.startsWith('[')) { try { return JSON.parse(t); } catch { throw new QuireError('REQ_002', 'file_urls is not valid JSON'); } }
  return t.split(/[\s,]+/).filter(Boolean);
};

function receiveFiles(req: Request, deps: GatewayDeps, orgId: string): Promise<{ fields: Record<string, unknown>; inputs: BatchInput[] }> {
  const limit = deps.config.uploadLimitBytes;
  return new Promise((resolve, reject) => {
    const fields: Record<string, unknown> = {};
    const inputs: BatchInput[] = [];
    const stores: Promise<unknown>[] = [];
    let failed: unknown;
    let done = false;
    const fail = async (e: unknown) => {
      if (done) return;
      done = true;
      await Promise.allSettled(stores);
      await Promise.all(inputs.map((i) => deps.blobs.deletePrefix(`${orgId}/${i.childId}/`).catch(() => undefined)));
      reject(e);
    };
    let bb: busboy.Busboy;
    try {
      bb = busboy({ headers: req.headers, limits: { fileSize: limit, files: MAX_BATCH_INPUTS, fields: 100, fieldSize: 1024 * 1024 } });
    } catch {
      reject(new QuireError('REQ_002', 'Malformed multipart body'));
      return;
    }
    bb.on('field', (name, value) => {
      if (name === 'file_urls' && fields.file_urls !== undefined) {
        const prev = Array.isArray(fields.file_urls) ? fields.file_urls : parseUrlList(String(fields.file_urls)) as unknown[];
        fields.file_urls = [...prev, ...(parseUrlList(value) as unknown[])];
      } else setField(fields, name, value);
    });
    bb.on('file', (name, file, info) => {
      if (!FILE_FIELDS.has(name) || done) { file.resume(); return; }
      const childId = randomUUID();
      const key = `${orgId}/${childId}/source`;
      const pass = new PassThrough();
      const input: BatchInput = { childId, blobKey: key, size: 0, filename: info.filename, source: 'upload' };
      inputs.push(input);
      file.on('limit', () => {
        file.unpipe(pass);
        pass.destroy(tooLarge(limit));
        req.unpipe(bb);
        file.resume();
        closeAfterAnswer(req);
        void fail(tooLarge(limit));
      });
      file.pipe(pass);
      stores.push(deps.blobs.put(key, pass).then(
        ({ size }) => { input.size = size; },
        (e) => { failed ??= e; },
      ));
    });
    bb.on('filesLimit', () => { failed ??= new QuireError('REQ_003', `A batch takes at most ${MAX_BATCH_INPUTS} documents`, { max: MAX_BATCH_INPUTS }); });
    bb.on('error', (e) => void fail(new QuireError('REQ_002', 'Malformed multipart body', { reason: (e as Error).message })));
    bb.on('close', () => {
      void Promise.allSettled(stores).then(async () => {
        if (done) return;
        if (failed) return fail(failed instanceof QuireError ? failed : new QuireError('STORAGE_001', 'Failed to store the upload'));
        const empty = inputs.find((i) => i.size === 0);
        if (empty) return fail(new QuireError('FILE_004', `Empty file${empty.filename ? `: ${empty.filename}` : ''}`));
        done = true;
        resolve({ fields, inputs });
      });
    });
    req.pipe(bb);
  });
}
