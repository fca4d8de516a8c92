import { safeFetch, type Config } from '@quire/runtime';
import type { UrlFetcher } from '../deps.js';

/** Downloads a request's file_url through the SSRF guard under the QUIRE_FILE_URL_* settings. */
export function fileUrlFetcher(settings: Config['fileUrl']): UrlFetcher {
  return async (url) => {
    const r = await safeFetch(url, { timeoutMs: settings.timeoutMs, allowPrivate: settings.allowPrivate, allowHosts: settings.allowHosts });
    return { body: r.body, contentType: r.headers['content-type'] as string | undefined };
  };
}
