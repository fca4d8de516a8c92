import type { RequestHandler } from 'express';
import { QuireError } from '@quire/core';
import { hash } from 'node:crypto';
import type { MetadataStore, FeatureFlag, ApiKeyRecord, Organization } from '@quire/storage';
import type { RateLimiter } from '@quire/runtime';

/**
 * A short-lived cache of successful key lookups (key record + organization), keyed by the key's
 * SHA-256, so a polling client costs one query per request instead of three. Admin changes (revoke,
 * suspend, flags) take effect within the TTL; expiry dates are still checked on every request.
 * Failed lookups are never cached. TTL 0 disables it.
 */
export class AuthCache {
  private readonly entries = new Map<string, { rec: ApiKeyRecord; org: Organization | undefined; until: number }>();
  constructor(
    private readonly store: MetadataStore, private readonly ttlMs: number, private readonly maxEntries = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  async lookup(key: string): Promise<{ rec: ApiKeyRecord | undefined; org: Organization | undefined }> {
    if (this.ttlMs <= 0) return this.load(key);
    const h = hash('sha256', key, 'base64'); // one-shot: no Hash object per request
    const now = this.now();
    const hit = this.entries.get(h);
    if (hit && hit.until > now) return hit;
    const fresh = await this.load(key);
    this.entries.delete(h);
    if (fresh.rec && !fresh.rec.revoked_at && fresh.org && !fresh.org.deleted_at) {
      if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(h, { rec: fresh.rec, org: fresh.org, until: now + this.ttlMs });
    }
    return fresh;
  }

  private async load(key: string) {
    const rec = await this.store.keys.findByKey(key);
    const org = rec ? await this.store.orgs.get(rec.org_id) : undefined;
    return { rec, org };
  }
}

/** x-api-key on every call: AUTH_001 missing, AUTH_002 invalid or revoked, AUTH_003 expired, AUTH_005 organization gone. */
export function authenticate(store: MetadataStore, cacheTtlMs = 0): RequestHandler {
  const cache = new AuthCache(store, cacheTtlMs);
  return async (req, _res, next) => {
    const key = req.header('x-api-key');
    if (!key) return next(new QuireError('AUTH_001', 'API key required: send it in the x-api-key header'));
    const { rec, org } = await cache.lookup(key.trim());
    if (!rec || rec.revoked_at) return next(new QuireError('AUTH_002', 'Invalid API key'));
    if (rec.expires_at && new Date(rec.expires_at).getTime() <= Date.now()) return next(new QuireError('AUTH_003', 'API key expired'));
    if (!org || org.deleted_at) return next(new QuireError('AUTH_005', 'Organization not found'));
    if (org.suspended) return next(new QuireError('BILLING_006', 'Account suspended'));
    req.org = org;
    req.apiKey = rec;
    next();
  };
}

const EVENT_STREAM_PATH = /^\/job\/[^/]+\/events\/?$/;

/**
 * Browsers cannot set headers on an EventSource, so GET /job/{id}/events (that route only) also takes
 * the key as `?api_key=` or `Authorization: Bearer`; it becomes the x-api-key header that
 * authenticate() reads. The request log records the path without its query, so the key is never logged.
 */
export const eventStreamCredentials: RequestHandler = (req, _res, next) => {
  if (req.method !== 'GET' || req.header('x-api-key') || !EVENT_STREAM_PATH.test(req.path)) return next();
  const bearer = /^Bearer\s+(\S+)$/i.exec(req.header('authorization') ?? '')?.[1];
  const key = typeof req.query.api_key === 'string' ? req.query.api_key : bearer;
  if (key) req.headers['x-api-key'] = key;
  next();
};

/** Per-key token bucket; 429 GENERAL_004 with Retry-After. */
export function rateLimit(limiter: RateLimiter, defaultPerMinute: number): RequestHandler {
  return async (req, res, next) => {
    const perMinute = req.org?.rate_limit_per_minute ?? defaultPerMinute;
    const d = await limiter.take(`key:${req.apiKey!.id}`, { capacity: perMinute, refillPerSecond: perMinute / 60 });
    res.setHeader('x-ratelimit-remaining', String(d.remaining));
    if (d.allowed) return next();
    const retryAfter = Math.max(1, Math.ceil(d.retryAfterMs / 1000));
    next(new QuireError('GENERAL_004', `Too many requests: limit is ${perMinute} per minute for this key`, { retry_after_seconds: retryAfter }));
  };
}

/** A disabled feature flag is AUTH_004 (403) naming the flag (the spec leaves the code open; see docs/decisions.md). */
export function requireFlag(flag: FeatureFlag): RequestHandler {
  return (req, _res, next) => {
    if (req.org?.flags?.[flag]) return next();
    next(new QuireError('AUTH_004', `The ${flag} feature is not enabled for this organization`, { flag }));
  };
}
