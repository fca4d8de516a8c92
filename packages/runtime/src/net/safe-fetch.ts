import dns from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { Readable } from 'node:stream';
import { QuireError } from '@quire/core';
import { isForbiddenAddress } from './address-policy.js';

export interface SafeFetchOptions {
  timeoutMs: number;
  allowPrivate?: boolean;
  /** Hosts or IPs reachable even when private (development, tests). */
  allowHosts?: string[];
  maxRedirects?: number;
}

export interface SafeFetchResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Readable;
  finalUrl: string;
}

/**
 * GET with a server-side-request-forgery guard: the host is resolved here, every address is checked,
 * and the connection goes to the checked address (so DNS rebinding cannot swap it). Redirects are
 * followed by hand and each hop is checked again. Errors: FILE_007 bad or forbidden URL, FILE_006
 * timeout, FILE_005 anything else (non-2xx, network).
 */
export async function safeFetch(rawUrl: string, opts: SafeFetchOptions): Promise<SafeFetchResponse> {
  const deadline = Date.now() + opts.timeoutMs;
  let url = parseUrl(rawUrl);
  for (let hop = 0; hop <= (opts.maxRedirects ?? 5); hop++) {
    const address = await resolveAllowed(url, opts);
    const res = await request(url, address, Math.max(1, deadline - Date.now()));
    if (res.statusCode && res.statusCode >= 300 && res.statusCode < 400 && res.headers.location) {
      res.resume();
      url = parseUrl(new URL(res.headers.location, url).toString());
      continue;
    }
    if (!res.statusCode || res.statusCode < 200 || res.statusCode >= 300) {
      res.resume();
      throw new QuireError('FILE_005', `Download from URL failed: HTTP ${res.statusCode}`, { status: res.statusCode });
    }
    // The deadline covers the body too: a stalled stream is destroyed with FILE_006.
    const left = deadline - Date.now();
    const timer = setTimeout(() => res.destroy(new QuireError('FILE_006', 'Timeout downloading file')), left);
    res.on('close', () => clearTimeout(timer));
    return { status: res.statusCode, headers: res.headers, body: res, finalUrl: url.toString() };
  }
  throw new QuireError('FILE_005', 'Download from URL failed: too many redirects');
}

function parseUrl(raw: string): URL {
  let url: URL;
  try { url = new URL(raw); } catch { throw new QuireError('FILE_007', 'Invalid file URL', { file_url: raw }); }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new QuireError('FILE_007', 'Invalid file URL: only http and https are supported', { file_url: raw });
  if (url.username || url.password) throw new QuireError('FILE_007', 'Invalid file URL: credentials in URLs are not accepted');
  return url;
}

async function resolveAllowed(url: URL, opts: SafeFetchOptions): Promise<{ address: string; family: number }> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const allowListed = (opts.allowHosts ?? []).includes(host);
  let addrs: { address: string; family: number }[];
  if (net.isIP(host)) addrs = [{ address: host, family: net.isIP(host) }];
  else {
    try { addrs = await dns.lookup(host, { all: true, verbatim: true }); } catch { throw new QuireError('FILE_005', `Download from URL failed: cannot resolve ${host}`); }
  }
  const ok = addrs.filter((a) => opts.allowPrivate || allowListed || (opts.allowHosts ?? []).includes(a.address) || !isForbiddenAddress(a.address));
  if (!ok.length || ok.length < addrs.length) {
    throw new QuireError('FILE_007', `Invalid file URL: ${host} resolves to a private, loopback or link-local address`, { host });
  }
  return ok[0];
}

function request(url: URL, addr: { address: string; family: number }, timeoutMs: number): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const lib = url.protocol === 'https:' ? https : http;
    const req = lib.get(url, {
      lookup: (_h, _o, cb) => (cb as (e: null, a: string, f: number) => void)(null, addr.address, addr.family),
      headers: { 'user-agent': 'Quire/0.1 (+file_url)' }, timeout: timeoutMs,
    }, resolve);
    req.on('timeout', () => req.destroy(new QuireError('FILE_006', 'Timeout downloading file')));
    req.on('error', (e) => reject(e instanceof QuireError ? e : new QuireError('FILE_005', 'Download from URL failed', { reason: e.message })));
  });
}
