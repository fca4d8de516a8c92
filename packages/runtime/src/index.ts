export * from './rate-limit/rate-limiter.js';
