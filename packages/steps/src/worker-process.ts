import { loadConfig } from '@quire/runtime';
import { JobRunner, createServiceContext, type ServiceContext } from '@quire/jobs';
import type { QueueName } from '@quire/queue';
import { checkOcrEngine, createStepServices } from './step-services.js';

/**
 * A fleet worker process: consumes `queues` with the handlers of this build. SIGTERM/SIGINT stop it
 * from taking work, let the jobs in hand finish (or hand them back via the lease) and close every
 * connection. Services' mains are one call to this.
 */
export async function runWorkerService(name: string, queues: QueueName[]): Promise<{ ctx: ServiceContext; stop: () => Promise<void> }> {
  const config = loadConfig();
  checkOcrEngine(config);
  const ctx = await createServiceContext(config, { role: name });
  const services = createStepServices(ctx);
  const runner = new JobRunner({ ...ctx, services: { ocr: services.ocr, languageModel: services.languageModel } }, services.handlers);
  runner.start(queues);
  ctx.log.info({ queues, concurrency: config.workerConcurrency, handlersOn: services.handlersOn, jobThreads: config.jobThreads }, `${name} started`);
  process.send?.({ ready: true, service: name }); // supervisors/tests started with an IPC channel
  let stopping: Promise<void> | undefined;
  const stop = () => (stopping ??= (async () => {
    ctx.log.info(`${name} stopping: finishing jobs in hand`);
    await ctx.queue.close();
    await runner.drain();
    await services.close();
    await ctx.close();
  })());
  return { ctx, stop };
}
