// Fleet gateway: the express app over Postgres, Redis and S3 (QUIRE_MODE=distributed). Thin wiring.
import { createContext, loadConfig, safeFetch } from '@quire/runtime';
import { JOB_HANDLERS } from '@quire/steps';
import { createGatewayApp } from './app.js';
import { createGatewayServer } from './http/server.js';

const config = loadConfig();
const ctx = await createContext(config, { role: 'gateway' });
const app = createGatewayApp({
  ...ctx,
  implementedKinds: new Set(Object.keys(JOB_HANDLERS)),
  fetchUrl: async (url) => {
    const r = await safeFetch(url, { timeoutMs: config.fileUrl.timeoutMs, allowPrivate: config.fileUrl.allowPrivate, allowHosts: config.fileUrl.allowHosts });
    return { body: r.body, contentType: r.headers['content-type'] as string | undefined };
  },
});
const server = createGatewayServer(app).listen(config.port, config.host, () => {
  const addr = server.address();
  ctx.log.info({ addr }, 'gateway listening');
  if (process.send) process.send({ ready: true, port: typeof addr === 'object' && addr ? addr.port : config.port });
});
const stop = async () => {
  server.close();
  server.closeAllConnections?.();
  await ctx.close();
  process.exit(0);
};
process.once('SIGTERM', () => void stop());
process.once('SIGINT', () => void stop());
