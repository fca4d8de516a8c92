export * from './app.js';
export { createGatewayServer, listenGateway } from './http/server.js';
export * from './deps.js';
export * from './route-docs.js';
export { receiveDocument } from './intake/receive-document.js';
export { respondWithJob, jobView, baseUrl } from './http/job-responses.js';
export { parseOrThrow } from './http/validate.js';
export { requireFlag } from './http/auth.js';
export { requireArtifact } from './http/artifacts.js';
