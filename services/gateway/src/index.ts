export * from './app.js';
export { createGatewayServer, listenGateway } from './http/server.js';
export { ServerDrain, drainTimeoutMs, DRAIN_MARGIN_MS, type DrainResult } from './http/drain.js';
export * from './deps.js';
export * from './route-docs.js';
export { fileUrlFetcher } from './intake/file-url-fetcher.js';
export { baseUrl } from './http/job-responses.js';
