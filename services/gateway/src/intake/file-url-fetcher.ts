import { safeFetch, type Config } from '@quire/runtime';
import type { UrlFetcher } from '../deps.js';

/**
 * file_url downloads through the SSRF guard, bounded: the whole download (headers and body) within
 * QUIRE_FILE_URL_TIMEOUT_SECONDS, at most QUIRE_FILE_URL_MAX_MB, and abandoned when `signal` aborts
 * (the client that asked has gone). An endless or slow body ends with FILE_006 or FILE_002 instead of
 * filling the disk.
 */
export function fileUrlFetcher(config: Config): UrlFetcher {
  const { timeoutMs, maxBytes, allowPrivate, allowHosts } = config.fileUrl;
  return async (url, signal) => {
    const r = await safeFetch(url, { timeoutMs, totalTimeoutMs: timeoutMs, maxBytes, allowPrivate, allowHosts, signal });
    return { body: r.body, contentType: r.headers['content-type'] as string | undefined };
  };
}
