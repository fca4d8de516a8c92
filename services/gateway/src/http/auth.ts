import type { RequestHandler } from 'express';
import { QuireError } from '@quire/core';
import type { MetadataStore, FeatureFlag } from '@quire/storage';
import type { RateLimiter } from '@quire/runtime';

/** x-api-key on every call: AUTH_001 missing, AUTH_002 invalid or revoked, AUTH_003 expired, AUTH_005 organization gone. */
export function authenticate(store: MetadataStore): RequestHandler {
  return async (req, _res, next) => {
    const key = req.header('x-api-key');
    if (!key) return next(new QuireError('AUTH_001', 'API key required: send it in the x-api-key header'));
    const rec = await store.keys.findByKey(key.trim());
    if (!rec || rec.revoked_at) return next(new QuireError('AUTH_002', 'Invalid API key'));
    if (rec.expires_at && new Date(rec.expires_at).getTime() <= Date.now()) return next(new QuireError('AUTH_003', 'API key expired'));
    const org = await store.orgs.get(rec.org_id);
    if (!org || org.deleted_at) return next(new QuireError('AUTH_005', 'Organization not found'));
    if (org.suspended) return next(new QuireError('BILLING_006', 'Account suspended'));
    req.org = org;
    req.apiKey = rec;
    next();
  };
}

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
