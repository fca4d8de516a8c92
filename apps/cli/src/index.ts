export * from './embedded.js';
export * from './bootstrap.js';
export * from './admin-channel.js';
export * from './admin.js';
