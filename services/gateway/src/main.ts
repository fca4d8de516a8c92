// Fleet gateway: the express app over Postgres, Redis and S3 (QUIRE_MODE=distributed). Thin wiring.
import { loadConfig } from '@quire/runtime';
import { RetentionSweeper, createServiceContext } from '@quire/jobs';
import { createGatewayApp } from './app.js';
import { fileUrlFetcher } from './intake/file-url-fetcher.js';
import type { GatewayLifecycle } from './deps.js';
import { createGatewayServer } from './http/server.js';
import { ServerDrain, drainTimeoutMs } from './http/drain.js';

const config = loadConfig();
const ctx = await createServiceContext(config, { role: 'gateway' });
const lifecycle: GatewayLifecycle = { draining: false };
const app = createGatewayApp({ ...ctx, lifecycle, fetchUrl: fileUrlFetcher(config) });
const server = createGatewayServer(app);
const drain = new ServerDrain(server, lifecycle);
server.listen(config.port, config.host, () => {
  const addr = server.address();
  ctx.log.info({ addr }, 'gateway listening');
  if (process.send) process.send({ ready: true, port: typeof addr === 'object' && addr ? addr.port : config.port });
});
// Retention in the fleet: every deployment has a gateway, so the gateways sweep; with several replicas
// one of them runs each round (RetentionSweeper's advisory lock, docs/decisions.md "Platform").
const sweeper = new RetentionSweeper(ctx.store, ctx.blobs, ctx.log, ctx.jobs.events);
sweeper.start(config.sweepIntervalSeconds * 1000);

let stopping: Promise<void> | undefined;
const stop = (signal: string) => (stopping ??= (async () => {
  const timeoutMs = drainTimeoutMs(config);
  ctx.log.info({ signal, drainSeconds: timeoutMs / 1000, inFlight: drain.active }, 'shutting down: finishing requests in flight');
  const sweeperStopped = sweeper.stop();
  const { timedOut, cut } = await drain.drain(timeoutMs);
  if (timedOut) ctx.log.warn({ cut, drainSeconds: timeoutMs / 1000 }, 'requests still in flight at the drain bound were cut (accepted jobs go on in the workers)');
  await sweeperStopped; // a round in progress ends after its job in hand, before the stores close
  await ctx.close();
  process.exit(0);
})());
process.once('SIGTERM', () => void stop('SIGTERM'));
process.once('SIGINT', () => void stop('SIGINT'));
