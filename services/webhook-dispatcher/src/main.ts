// Fleet webhook dispatcher: outbox → signed deliveries with retries (packages/webhooks over the metadata store). Thin wiring.
import { createWebhookDispatcher, createLogger, loadConfig } from '@quire/runtime';
import { openMetadataStore } from '@quire/storage';
import { hostname } from 'node:os';

const config = loadConfig();
const log = createLogger(config.logLevel, { role: 'webhook-dispatcher' });
if (config.mode !== 'distributed') {
  console.error('services/webhook-dispatcher runs in distributed mode (QUIRE_MODE=distributed); embedded mode runs the dispatcher in-process');
  process.exit(2);
}
const store = await openMetadataStore({ kind: 'postgres', url: config.databaseUrl!, poolSize: Math.min(config.databasePoolSize, 4) });
const dispatcher = createWebhookDispatcher(store, config, log, `${hostname()}-${process.pid}`);
dispatcher.start();
log.info({ name: dispatcher.name }, 'webhook dispatcher started');
process.send?.({ ready: true, service: 'webhook-dispatcher' });
const stop = async () => {
  await dispatcher.stop(); // deliveries in flight finish and are logged
  await store.close();
  process.exit(0);
};
process.once('SIGTERM', () => void stop());
process.once('SIGINT', () => void stop());
