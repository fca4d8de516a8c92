import { createHash, timingSafeEqual } from 'node:crypto';
import type { JobRecord } from '@quire/storage';
import type { GatewayDeps } from '../deps.js';

export const tokenHash = (s: string) => createHash('sha256').update(s).digest('hex');

/**
 * The /convert file `fileId` when `token` is its capability token (compared by hash, in constant
 * time); undefined otherwise. What both GET /files/{id}?token= and a hosted file_url rely on.
 */
export async function hostedFileForToken(deps: GatewayDeps, fileId: string, token: string): Promise<JobRecord | undefined> {
  const job = await deps.store.jobs.get(fileId).catch(() => undefined);
  const expected = typeof job?.input?.token_hash === 'string' ? Buffer.from(job.input.token_hash) : undefined;
  const given = Buffer.from(tokenHash(token));
  if (!job || job.kind !== 'convert' || !expected || expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
  return job;
}

/**
 * `{fileId, token}` when `url` is one of this service's own /convert URLs — `<base>/files/{id}?token=…`
 * with `base` the URL this gateway hands out (QUIRE_PUBLIC_URL, else the request's own origin) — so
 * intake can read the file from storage instead of fetching it. Nothing else is recognised: any other
 * URL, private or not, still goes through the SSRF-guarded download.
 */
export function ownHostedFileRef(url: string, base: string): { fileId: string; token: string } | undefined {
  let u: URL, b: URL;
  try {
    u = new URL(url);
    b = new URL(base);
  } catch {
    return undefined;
  }
  if (u.origin !== b.origin || u.username || u.password) return undefined;
  const prefix = `${b.pathname.replace(/\/+$/, '')}/files/`;
  if (!u.pathname.startsWith(prefix)) return undefined;
  const fileId = u.pathname.slice(prefix.length);
  const token = u.searchParams.get('token');
  if (!/^[0-9a-f-]{36}$/i.test(fileId) || !token) return undefined;
  return { fileId, token };
}
