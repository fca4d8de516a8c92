export * from './rate-limit/rate-limiter.js';
export * from './rate-limit/memory-rate-limiter.js';
export * from './rate-limit/redis-rate-limiter.js';
export * from './net/safe-fetch.js';
export * from './net/ip-policy.js';
