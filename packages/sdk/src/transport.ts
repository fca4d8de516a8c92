import { backoffDelay, sleep, type BackoffOptions } from './backoff.js';
import { QuireError, errorFromResponse, isAbortError, networkError } from './errors.js';

export interface TransportOptions {
  baseUrl: string;
  apiKey?: string;
  /** Attempts after the first for retryable codes and network errors (default 3). */
  maxRetries?: number;
  retryBackoff?: BackoffOptions;
  fetch?: typeof fetch;
  headers?: Record<string, string>;
}

/** What fetch accepts as a body (the DOM's BodyInit, named here without the DOM lib). */
type RequestBody = NonNullable<RequestInit['body']>;

export interface RequestOptions {
  json?: unknown;
  /** A body built anew for every attempt (multipart bodies). */
  body?: () => RequestBody | Promise<RequestBody>;
  query?: Record<string, string | number | boolean | undefined>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Do not retry (streams that cannot be re-sent, event streams handled by their caller). */
  noRetry?: boolean;
}

/**
 * HTTP with the API key, the spec's error body as QuireError, and bounded retries of retryable codes and network
 * errors with backoff and jitter (a Retry-After header, when sent, is waited at least).
 */
export class Transport {
  readonly baseUrl: string;
  private readonly apiKey?: string;
  private readonly maxRetries: number;
  private readonly backoff: BackoffOptions;
  private readonly fetchImpl: typeof fetch;
  private readonly headers: Record<string, string>;

  constructor(o: TransportOptions) {
    this.baseUrl = o.baseUrl.replace(/\/+$/, '');
    this.apiKey = o.apiKey;
    this.maxRetries = o.maxRetries ?? 3;
    this.backoff = o.retryBackoff ?? { initialMs: 500, maxMs: 8000 };
    this.fetchImpl = o.fetch ?? fetch;
    this.headers = o.headers ?? {};
  }

  /** An absolute URL for a path, or the URL itself when the service gave one (pdf_url, image_url, result url). */
  url(pathOrUrl: string, query?: RequestOptions['query']): URL {
    const u = /^https?:\/\//i.test(pathOrUrl) ? new URL(pathOrUrl) : new URL(this.baseUrl + pathOrUrl);
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) u.searchParams.set(k, String(v));
    return u;
  }

  /** Sends the request and returns a 2xx response; anything else throws QuireError. */
  async request(method: string, pathOrUrl: string, o: RequestOptions = {}): Promise<Response> {
    const url = this.url(pathOrUrl, o.query);
    for (let attempt = 0; ; attempt++) {
      let error: QuireError;
      let retryAfterMs = 0;
      try {
        const res = await this.fetchImpl(url, { method, headers: this.headersFor(url, o), body: await this.bodyOf(o), signal: o.signal });
        if (res.ok) return res;
        retryAfterMs = parseRetryAfter(res.headers.get('retry-after'));
        error = await errorFromResponse(res);
      } catch (e) {
        if (isAbortError(e) || o.signal?.aborted) throw o.signal?.reason ?? e;
        if (e instanceof QuireError) throw e;
        error = networkError(e);
      }
      if (o.noRetry || !error.retryable || attempt >= this.maxRetries) throw error;
      await sleep(Math.max(retryAfterMs, backoffDelay(attempt, this.backoff)), o.signal);
    }
  }

  async json<T>(method: string, pathOrUrl: string, o: RequestOptions = {}): Promise<T> {
    const res = await this.request(method, pathOrUrl, o);
    return (await res.json()) as T;
  }

  async bytes(pathOrUrl: string, o: RequestOptions = {}): Promise<Uint8Array> {
    const res = await this.request('GET', pathOrUrl, o);
    return new Uint8Array(await res.arrayBuffer());
  }

  /** The key goes only to the service's own origin, never to another host a URL may point at. */
  private headersFor(url: URL, o: RequestOptions): Headers {
    const h = new Headers({ ...this.headers, ...o.headers });
    if (this.apiKey && url.origin === new URL(this.baseUrl).origin) h.set('x-api-key', this.apiKey);
    if (o.json !== undefined) h.set('content-type', 'application/json');
    return h;
  }

  private async bodyOf(o: RequestOptions): Promise<RequestBody | undefined> {
    if (o.json !== undefined) return JSON.stringify(o.json);
    return o.body ? await o.body() : undefined;
  }
}

function parseRetryAfter(v: string | null): number {
  if (!v) return 0;
  const secs = Number(v);
  if (Number.isFinite(secs)) return Math.min(60_000, Math.max(0, secs * 1000));
  const at = Date.parse(v);
  return Number.isFinite(at) ? Math.min(60_000, Math.max(0, at - Date.now())) : 0;
}
