export * from './blob-store.js';
export * from './blob-key.js';
export * from './fs-blob-store.js';
export * from './s3-blob-store.js';
