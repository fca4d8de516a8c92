import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { Transform, type Readable } from 'node:stream';
import { QuireError, isQuireError } from '@quire/core';
import { AllowList, forbiddenRange } from './ip-policy.js';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}
/** Resolves a host name to all its addresses (default: dns.lookup with all:true). Injectable for tests. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export interface SafeFetchOptions {
  /** Time allowed until the final response's headers (all redirects included), and the longest silence while reading the body. */
  timeoutMs: number;
  /** Refuse bodies larger than this (Content-Length up front, counted while streaming): FILE_002. */
  maxBytes?: number;
  /** The whole exchange, body included, must end within this (FILE_006 past it); without it only silence is timed. */
  totalTimeoutMs?: number;
  /** Skip the address checks altogether (local development only). */
  allowPrivate?: boolean;
  /** Host names, IPs or CIDR ranges exempt from the address checks (e.g. ['127.0.0.1'] in tests). */
  allowHosts?: readonly string[];
  maxRedirects?: number;
  method?: 'GET' | 'POST' | 'HEAD';
  headers?: Record<string, string>;
  body?: Uint8Array | string;
  resolve?: Resolver;
  /**
   * Stops the download (connecting, or reading the body): with the signal's reason when it is an error of
   * its own (a job's stop), else FILE_005 "abandoned" (a client that went away, a plain abort()).
   */
  signal?: AbortSignal;
}

export interface SafeFetchResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Readable;
  finalUrl: string;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const defaultResolver: Resolver = async (hostname) =>
  (await dns.promises.lookup(hostname, { all: true, verbatim: true })) as ResolvedAddress[];

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/**
 * Fetches a user-supplied URL without letting it reach the inside of our network (SSRF): only
 * http(s); every address the host resolves to must be public (or allow-listed); the connection goes to
 * the address that was checked (a pinned `lookup`, so a second DNS answer cannot swap it: rebinding);
 * redirects are followed by hand and each hop is checked again.
 * Errors: bad URL or refused address FILE_007, timeout FILE_006, non-2xx or network failure FILE_005,
 * over maxBytes FILE_002. Body errors surface on the returned stream with the same codes.
 */
export async function safeFetch(url: string, opts: SafeFetchOptions): Promise<SafeFetchResponse> {
  const allow = new AllowList(opts.allowHosts ?? []);
  const maxRedirects = opts.maxRedirects ?? 5;
  const started = Date.now();
  // Headers must come within timeoutMs, and within the total time when there is one.
  const deadline = started + Math.min(opts.timeoutMs, opts.totalTimeoutMs ?? Infinity);
  const totalDeadline = opts.totalTimeoutMs === undefined ? undefined : started + opts.totalTimeoutMs;
  let current = parseUrl(url);
  let method = opts.method ?? 'GET';
  let body = opts.body;
  for (let hop = 0; ; hop++) {
    if (opts.signal?.aborted) throw abortError(opts.signal, current);
    const target = await withDeadline(checkTarget(current, allow, opts), deadline, current);
    const ctx: BodyContext = {};
    const res = await request(current, target, { ...opts, method, body }, deadline, ctx);
    const location = res.headers.location;
    if (REDIRECTS.has(res.statusCode ?? 0) && location) {
      res.destroy();
      if (hop >= maxRedirects) throw new QuireError('FILE_005', `Too many redirects (more than ${maxRedirects})`, { url: current.href });
      current = parseUrl(location, current);
      if (res.statusCode === 303 || ((res.statusCode === 301 || res.statusCode === 302) && method === 'POST')) {
        method = 'GET';
        body = undefined;
      }
      continue;
    }
    const status = res.statusCode ?? 0;
    if (status < 200 || status > 299) {
      res.destroy();
      throw new QuireError('FILE_005', `Download failed: the server answered ${status}`, { status, url: current.href });
    }
    return { status, headers: res.headers, body: limitBody(res, opts, current, ctx, totalDeadline), finalUrl: current.href };
  }
}

/**
 * Checks now, by the same rules as safeFetch, a URL kept to be fetched later (a webhook endpoint): FILE_007
 * for a malformed URL, another scheme, or a host that resolves to a non-public address. A host that does
 * not resolve within `timeoutMs` passes: whether it ever will is not known yet, and every fetch checks again.
 */
export async function checkUrlTarget(url: string, opts: Pick<SafeFetchOptions, 'timeoutMs' | 'allowPrivate' | 'allowHosts' | 'resolve'>): Promise<void> {
  const u = parseUrl(url);
  try {
    await withDeadline(checkTarget(u, new AllowList(opts.allowHosts ?? []), opts), Date.now() + opts.timeoutMs, u);
  } catch (e) {
    if (isQuireError(e) && e.code === 'FILE_007') throw e;
  }
}

/** DNS is part of the time budget too: getaddrinfo can take many seconds to give up. */
async function withDeadline<T>(p: Promise<T>, deadline: number, u: URL): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new QuireError('FILE_006', `Timeout resolving ${u.hostname}`, { url: u.href })),
      Math.max(0, deadline - Date.now()));
  });
  try {
    return await Promise.race([p, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function parseUrl(raw: string, base?: URL): URL {
  let u: URL;
  try {
    u = new URL(raw, base);
  } catch {
    throw new QuireError('FILE_007', 'Invalid file URL', { url: String(raw).slice(0, 300) });
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') {
    throw new QuireError('FILE_007', `Unsupported URL scheme ${u.protocol.replace(/:$/, '')}; use http or https`, { url: u.href });
  }
  if (!u.hostname) throw new QuireError('FILE_007', 'URL has no host', { url: u.href });
  return u;
}

/** Resolves the host and returns the address to connect to, or throws FILE_007 when any is forbidden. */
async function checkTarget(u: URL, allow: AllowList, opts: SafeFetchOptions): Promise<ResolvedAddress> {
  const host = u.hostname.replace(/^\[|\]$/g, '');
  let addrs: ResolvedAddress[];
  if (net.isIP(host)) {
    addrs = [{ address: host, family: net.isIP(host) as 4 | 6 }];
  } else {
    try {
      addrs = await (opts.resolve ?? defaultResolver)(host);
    } catch (e) {
      throw new QuireError('FILE_005', `Could not resolve ${host}`, { host, cause: message(e) });
    }
    if (addrs.length === 0) throw new QuireError('FILE_005', `Could not resolve ${host}`, { host });
  }
  if (opts.allowPrivate || allow.hasHost(host)) return addrs[0];
  // Any forbidden answer refuses the whole host: a mix of public and private addresses is a classic rebinding set-up.
  for (const a of addrs) {
    const range = allow.hasAddress(a.address) ? null : forbiddenRange(a.address);
    if (range) {
      throw new QuireError('FILE_007', `URL refused: ${host} resolves to a non-public address (${range})`, {
        url: u.href, range,
      });
    }
  }
  return addrs[0];
}

type RequestOpts = SafeFetchOptions & { method: string; body?: Uint8Array | string };
/** Lets the request's idle timer fail the body stream with FILE_006 once headers have arrived. */
interface BodyContext {
  fail?: (e: Error) => void;
}

function request(
  u: URL, target: ResolvedAddress, opts: RequestOpts, deadline: number, ctx: BodyContext,
): Promise<http.IncomingMessage> {
  const pinned = ((_host: string, lookupOpts: dns.LookupOptions, cb: (...args: unknown[]) => void) => {
    // Node asks with all:true when autoSelectFamily is on (the default since Node 20).
    if (lookupOpts?.all) cb(null, [{ address: target.address, family: target.family }]);
    else cb(null, target.address, target.family);
  }) as unknown as typeof dns.lookup;
  const mod = u.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = mod.request(u, {
      method: opts.method,
      headers: { 'user-agent': 'quire', ...opts.headers },
      lookup: pinned,
      agent: false, // no pooled socket from an earlier, differently-checked address
    });
    const fail = (e: QuireError) => { clearTimeout(timer); req.destroy(e); reject(e); };
    const signal = opts.signal;
    const onAbort = () => {
      const e = abortError(signal!, u);
      clearTimeout(timer);
      ctx.fail?.(e); // the body, once headers have arrived, ends with the reason too
      req.destroy(e);
      reject(e);
    };
    const offAbort = () => signal?.removeEventListener('abort', onAbort);
    signal?.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(() => fail(new QuireError('FILE_006', `Timeout downloading ${u.host}`, { url: u.href })),
      Math.max(0, deadline - Date.now()));
    // Idle timeout: also covers a body that stops arriving after the headers.
    req.setTimeout(opts.timeoutMs, () => {
      const e = new QuireError('FILE_006', `Timeout downloading ${u.host}: no data for ${opts.timeoutMs} ms`, { url: u.href });
      ctx.fail?.(e); // first error wins on the body stream: report the timeout, not the reset it causes
      req.destroy(e);
      reject(e);
    });
    req.on('error', (e) => {
      clearTimeout(timer);
      offAbort();
      reject(isQuireError(e) ? e : new QuireError('FILE_005', `Download from ${u.host} failed`, { url: u.href, cause: message(e) }));
    });
    req.on('response', (res) => {
      clearTimeout(timer);
      res.once('close', offAbort);
      const len = Number(res.headers['content-length']);
      if (opts.maxBytes !== undefined && Number.isFinite(len) && len > opts.maxBytes) {
        res.destroy();
        req.destroy();
        reject(tooLarge(opts.maxBytes, u));
        return;
      }
      resolve(res);
    });
    req.end(opts.body);
  });
}

/** The error an aborted download ends with: the signal's own error, or FILE_005 when it carries none. */
function abortError(signal: AbortSignal, u: URL): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error && reason.name !== 'AbortError'
    ? reason
    : new QuireError('FILE_005', 'Download abandoned: the request that asked for it has ended', { url: u.href });
}

const tooLarge = (maxBytes: number, u: URL) =>
  new QuireError('FILE_002', `File too large: over the ${maxBytes}-byte limit for downloads`, { url: u.href, maxBytes });

/** The response body as a stream that counts bytes and turns failures into the spec's codes. */
function limitBody(res: http.IncomingMessage, opts: SafeFetchOptions, u: URL, ctx: BodyContext, totalDeadline?: number): Readable {
  let seen = 0;
  const out = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      seen += chunk.length;
      if (opts.maxBytes !== undefined && seen > opts.maxBytes) cb(tooLarge(opts.maxBytes, u));
      else cb(null, chunk);
    },
  });
  const onError = (e: unknown) => {
    if (out.destroyed) return;
    const stopped = opts.signal?.aborted && e instanceof Error && e.name !== 'AbortError';
    out.destroy(isQuireError(e) || stopped ? e as Error : new QuireError('FILE_005', 'Download interrupted', { cause: message(e) }));
  };
  ctx.fail = onError;
  res.on('error', onError);
  res.on('aborted', () => onError(new Error('connection closed before the body was complete')));
  res.on('close', () => { if (!res.complete) onError(new Error('connection closed before the body was complete')); });
  // The total time and the caller's abort end the body wherever it is, however steadily it arrives.
  const total = totalDeadline === undefined ? undefined : setTimeout(() => {
    onError(new QuireError('FILE_006', `Timeout downloading ${u.host}: not complete within ${opts.totalTimeoutMs} ms`, { url: u.href }));
  }, Math.max(0, totalDeadline - Date.now()));
  out.on('close', () => {
    clearTimeout(total);
    if (!res.complete) res.destroy();
  });
  res.pipe(out);
  return out;
}
