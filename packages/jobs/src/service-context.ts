import { createContext, type Config, type ContextOptions, type QuireContext } from '@quire/runtime';
import { JobService } from './job-service.js';
import { JobEventPublisher } from './job-event-publisher.js';

/** A process's wired adapters (runtime's createContext) plus the job service that submits and cancels jobs on them. */
export interface ServiceContext extends QuireContext {
  jobs: JobService;
}

export async function createServiceContext(config: Config, opts: ContextOptions = {}): Promise<ServiceContext> {
  const ctx = await createContext(config, opts);
  return { ...ctx, jobs: new JobService(ctx.store, ctx.queue, config.retentionHours, ctx.log, new JobEventPublisher(ctx.events, ctx.log)) };
}
