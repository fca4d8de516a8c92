import { randomUUID } from 'node:crypto';
import type { Request } from 'express';
import { QuireError } from '@quire/core';
import type { GatewayDeps } from '../deps.js';
import { abandonedWith, download, setField, type ReceivedRequest } from './receive-document.js';
import { readMultipart } from './read-multipart.js';
import { baseUrl } from '../http/job-responses.js';

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
    const signal = abandonedWith(req);
    for (const url of urls as string[]) {
      const childId = randomUUID();
      inputs.push({ childId, ...(await download(url, deps, `${orgId}/${childId}/`, signal, baseUrl(req, deps))) });
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

async function receiveFiles(req: Request, deps: GatewayDeps, orgId: string): Promise<{ fields: Record<string, unknown>; inputs: BatchInput[] }> {
  const fields: Record<string, unknown> = {};
  const childIds = new Map<string, string>(); // blob key → child job id
  const files = await readMultipart(req, deps, {
    limitBytes: deps.config.uploadLimitBytes, maxFiles: MAX_BATCH_INPUTS,
    tooManyFiles: () => new QuireError('REQ_003', `A batch takes at most ${MAX_BATCH_INPUTS} documents`, { max: MAX_BATCH_INPUTS }),
    acceptsFile: (field) => FILE_FIELDS.has(field),
    blobKeyFor: () => {
      const childId = randomUUID();
      const key = `${orgId}/${childId}/source`;
      childIds.set(key, childId);
      return key;
    },
    onField: (name, value) => {
      if (name === 'file_urls' && fields.file_urls !== undefined) {
        const prev = Array.isArray(fields.file_urls) ? fields.file_urls : parseUrlList(String(fields.file_urls)) as unknown[];
        fields.file_urls = [...prev, ...(parseUrlList(value) as unknown[])];
      } else setField(fields, name, value);
    },
  });
  const inputs: BatchInput[] = files.map((f) => ({ childId: childIds.get(f.blobKey)!, blobKey: f.blobKey, size: f.size, filename: f.filename, source: 'upload' }));
  const empty = inputs.find((i) => i.size === 0);
  if (empty) {
    await Promise.all(inputs.map((i) => deps.blobs.deletePrefix(`${orgId}/${i.childId}/`).catch(() => undefined)));
    throw new QuireError('FILE_004', `Empty file${empty.filename ? `: ${empty.filename}` : ''}`);
  }
  return { fields, inputs };
}
